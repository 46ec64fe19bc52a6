/**
 * @module session-history
 * `SessionHistory`: the model-visible history of one live session (SPEC §3.5), kept up to date as the
 * session grows. Each event is folded once, read from the session in windows, so a resumed long session
 * holds the messages the model reads — not every decoded event, and never all of them twice (SPEC §24).
 */
import type { SessionEvent } from 'dsh-codec';
import type { Session } from 'dsh-session';
import { foldSurface, type SurfaceNode } from './derive-history.js';
import { collectPendingInput, pendingInputsOf, type PendingInput } from './log-state.js';
import type { ModelMessage } from './model.js';

/** How many events one read of the session decodes: one window is held at a time. */
const WINDOW = 4096;

/** The surface of a session's log so far, folded from its first event on. */
export class SessionHistory {
  #nodes: SurfaceNode[] = [];
  #next = 0;
  /** What folding an event threw (a surface event without its message): every later `messages` throws it. */
  #failure: Error | undefined;

  /**
   * Folds the events appended since the last call (all of them the first time), handing each to
   * `visit` too, in order; reads them in windows, so only one window of decoded events is held.
   */
  advance(session: Pick<Session, 'nextSeq' | 'eventsFrom'>, visit?: (event: SessionEvent) => void): void {
    const end = session.nextSeq;
    for (let from = this.#next; from < end; from += WINDOW) {
      for (const event of session.eventsFrom(from, Math.min(end, from + WINDOW))) {
        if (this.#failure === undefined) {
          try {
            this.#nodes = foldSurface(this.#nodes, event);
          } catch (error) {
            this.#failure = error instanceof Error ? error : new Error(String(error));
          }
        }
        visit?.(event);
      }
    }
    this.#next = Math.max(this.#next, end);
  }

  /** The model-visible history of the whole log as it is now (`deriveHistory(session.events)`, and its refusals). */
  messages(session: Pick<Session, 'nextSeq' | 'eventsFrom'>): ModelMessage[] {
    this.advance(session);
    if (this.#failure !== undefined) throw this.#failure;
    return this.#nodes.map((node) => node.message);
  }
}

/**
 * The input of `session` no turn has claimed, from its `inheritedEventCount` on. A fork child reads only
 * its own events (its inherited ones wait for its first model request); any other log is read once, in
 * windows, for both its pending input and `history` (a resumed long session, SPEC §24).
 */
export function pendingInputsRead(
  session: Pick<Session, 'nextSeq' | 'eventsFrom' | 'inheritedEventCount'>,
  history: SessionHistory,
): PendingInput[] {
  const from = session.inheritedEventCount;
  if (from > 0) return pendingInputsOf(session.eventsFrom(from), 0);
  const pending = new Map<string, PendingInput>();
  history.advance(session, (event) => {
    collectPendingInput(pending, event);
  });
  return [...pending.values()];
}
