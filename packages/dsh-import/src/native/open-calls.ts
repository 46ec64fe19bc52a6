/**
 * The calls a cut leaves open, read from dsh's own events (SPEC §4's scan: only the open step's
 * pending calls, in declaration order; a `tool/call` marks one started), and the text dsh's shared
 * closer stores for each — taken from dsh-codec, so there is no second wording.
 */
import type { CloseCause, SessionEvent, ToolEffect } from 'dsh-codec';
import { syntheticResultText } from 'dsh-codec/synthetic-results';

/** One call open at the cut: its id and name, whether it started, and its effect. */
export type OpenCall = { callId: string; name: string; started: boolean; effect: ToolEffect };

/** The open step's calls without a result at the end of `events` (none when no turn is open). */
export function openCallsAt(events: readonly SessionEvent[]): OpenCall[] {
  let turnOpen = false;
  let pending: OpenCall[] = [];
  for (const event of events) {
    const data = event.data as Record<string, unknown>;
    switch (event.type) {
      case 'turn/start':
        turnOpen = true;
        pending = [];
        break;
      case 'turn/end':
        turnOpen = false;
        pending = [];
        break;
      case 'step/start':
      case 'step/end':
        pending = [];
        break;
      case 'assistant/message': {
        const content = (data.message as { content: { type: string; id?: string; name?: string }[] }).content;
        for (const block of content) {
          if (block.type === 'tool-call')
            pending.push({ callId: block.id ?? '', name: block.name ?? '', started: false, effect: 'unknown' });
        }
        break;
      }
      case 'tool/call': {
        const call = pending.find((open) => open.callId === data.callId);
        if (call !== undefined) {
          call.started = true;
          call.effect = data.effect as ToolEffect;
        }
        break;
      }
      case 'tool/result': {
        const callId = (data.message as { callId: string }).callId;
        pending = pending.filter((open) => open.callId !== callId);
        break;
      }
    }
  }
  return turnOpen ? pending : [];
}

/** Exactly the text dsh's closer stores for `call` closed by `cause`. */
export function closerText(cause: CloseCause, call: OpenCall): string {
  return syntheticResultText(cause, call.started, call.effect);
}
