/**
 * @module log-state
 * Small readers of a session log that the loop needs: the next turn number, whether a turn is
 * open (and the refusal of a log that ends in one), and the input still waiting for a turn.
 */
import type { SessionEvent, UserMessage } from 'dsh-codec';
import type { Session } from 'dsh-session';
import { AgentError } from './agent-error.js';

/** An `input/queued` event not yet claimed by a turn. */
export type PendingInput = { seq: number; inputId: string; message: UserMessage };

/** The number the next `turn/start` must carry: turns continue across forks and repairs. */
export function nextTurnNumber(events: readonly SessionEvent[]): number {
  for (let index = events.length - 1; index >= 0; index -= 1) {
    const event = events[index];
    if (event?.type === 'turn/start') return (event.data as { turn: number }).turn + 1;
  }
  return 1;
}

/** The turn left open at the end of the log, if any (a log the agent must not continue). */
export function openTurn(events: readonly SessionEvent[]): number | undefined {
  for (let index = events.length - 1; index >= 0; index -= 1) {
    const event = events[index];
    if (event?.type === 'turn/end') return undefined;
    if (event?.type === 'turn/start') return (event.data as { turn: number }).turn;
  }
  return undefined;
}

/** The number the session's next `turn/start` must carry, read without decoding a fork child's inherited events. */
export function nextTurnOf(session: Pick<Session, 'latest'>): number {
  const start = session.latest('turn/start');
  return start === undefined ? 1 : (start.data as { turn: number }).turn + 1;
}

/** Refuses (`INVALID_OPTION`) a session whose log ends inside an open turn: a store's `open` repairs it first. */
export function assertNoOpenTurn(session: Pick<Session, 'id' | 'latest'>): void {
  const boundary = session.latest('turn/start', 'turn/end');
  if (boundary?.type !== 'turn/start') return;
  const open = boundary.data.turn;
  throw new AgentError(
    'INVALID_OPTION',
    `session ${session.id} ends inside open turn ${open}; open it through SessionStore.open, which repairs it`,
  );
}

/**
 * The input queue rebuilt from a log: `input/queued` events at or after `from` (a session's
 * `inheritedEventCount`, so a fork child never inherits pending input) not claimed by a
 * `user/message` carrying their `inputId`, in queue order.
 */
export function pendingInputsOf(events: readonly SessionEvent[], from: number): PendingInput[] {
  const pending = new Map<string, PendingInput>();
  for (const event of events.slice(from)) collectPendingInput(pending, event);
  return [...pending.values()];
}

/** One step of `pendingInputsOf`: `event` queues an input (kept by id, in queue order) or claims one (removed). */
export function collectPendingInput(pending: Map<string, PendingInput>, event: SessionEvent): void {
  if (event.type === 'input/queued') {
    const data = event.data as { inputId: string; message: UserMessage };
    pending.set(data.inputId, { seq: event.seq, inputId: data.inputId, message: data.message });
  } else if (event.type === 'user/message') {
    const inputId = (event.data as { inputId?: string }).inputId;
    if (inputId !== undefined) pending.delete(inputId);
  }
}
