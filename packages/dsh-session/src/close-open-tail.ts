/**
 * The one algorithm that closes an open tail (SPEC §4), shared by fork and crash recovery.
 * Internal: imported by `fork.ts` and the store, never exported from the package.
 */
import {
  syntheticResultError,
  syntheticResultMessage,
  type CloserOptions,
  type CloseCause,
  type CoreEventDataMap,
  type SessionEvent,
  type ToolEffect,
} from 'dsh-codec';

type PendingCall = { callId: string; started: boolean; effect: ToolEffect | undefined };

/** What the single scan learns about the log's tail. */
export type OpenTail = {
  /** The open turn's number, when a turn is open. */
  turn: number | undefined;
  /** The open step's number, when a step of the open turn is open. */
  step: number | undefined;
  /** Calls of the open step without a result, in declaration order. */
  pending: readonly PendingCall[];
};

type Data<K extends keyof CoreEventDataMap> = CoreEventDataMap[K];

/** Scans the log's last turn (from its last turn boundary) and reports its open turn, open step and the open step's pending calls. */
export function scanOpenTail(events: readonly SessionEvent[]): OpenTail {
  let turn: number | undefined;
  let step: number | undefined;
  // Map keeps insertion order, which is declaration order.
  let pending = new Map<string, PendingCall>();
  // turn/start and turn/end reset everything, so the scan may begin at the last of them.
  let from = events.length - 1;
  while (from > 0 && events[from]?.type !== 'turn/start' && events[from]?.type !== 'turn/end') from -= 1;
  for (let index = Math.max(from, 0); index < events.length; index++) {
    const event = events[index] as SessionEvent;
    switch (event.type) {
      case 'turn/start':
        turn = (event.data as Data<'turn/start'>).turn;
        step = undefined;
        pending = new Map();
        break;
      case 'turn/end':
        turn = undefined;
        step = undefined;
        pending = new Map();
        break;
      case 'step/start':
        step = (event.data as Data<'step/start'>).step;
        pending = new Map();
        break;
      case 'step/end':
        // A closed step is never repaired: its missing results are a historical failure.
        step = undefined;
        pending = new Map();
        break;
      case 'assistant/message': {
        if (step === undefined) break;
        for (const block of (event.data as Data<'assistant/message'>).message.content) {
          if (block.type === 'tool-call' && !pending.has(block.id)) {
            pending.set(block.id, { callId: block.id, started: false, effect: undefined });
          }
        }
        break;
      }
      case 'tool/call': {
        const data = event.data as Data<'tool/call'>;
        const call = pending.get(data.callId);
        if (call !== undefined) pending.set(data.callId, { ...call, started: true, effect: data.effect });
        break;
      }
      case 'tool/result':
        pending.delete((event.data as Data<'tool/result'>).message.callId);
        break;
      default:
        // session/*, input/queued, user messages and plugin events do not open or close anything.
        break;
    }
  }
  return { turn, step: turn === undefined ? undefined : step, pending: [...pending.values()] };
}

/**
 * The synthetic events that close the log's open turn for `cause`: one error result per pending
 * call of the open step (declaration order), `step/end` if a step is open, then `turn/end`.
 * Pure and deterministic; returns `[]` when no turn is open. Plugin brackets stay open.
 * `options.workspace: 'at-cut'` (forks only: the child's files are the workspace at the cut) adds
 * the codec's canonical workspace sentence to each result's text (format V6).
 */
export function closeOpenTail(events: readonly SessionEvent[], cause: CloseCause, options: CloserOptions = {}): SessionEvent[] {
  const last = events.at(-1);
  if (last === undefined) return [];
  const tail = scanOpenTail(events);
  if (tail.turn === undefined) return [];
  const turn = tail.turn;
  const time = last.time;
  let seq = last.seq + 1;
  const closers: SessionEvent[] = [];
  if (tail.step !== undefined) {
    const step = tail.step;
    for (const call of tail.pending) {
      const data: Data<'tool/result'> = {
        turn,
        step,
        message: syntheticResultMessage(
          cause,
          call.started && call.effect !== undefined
            ? { callId: call.callId, started: true, effect: call.effect }
            : { callId: call.callId, started: call.started },
          seq,
          options,
        ),
        error: syntheticResultError(call.started),
      };
      closers.push({ seq, type: 'tool/result', time, data });
      seq += 1;
    }
    const stepEnd: Data<'step/end'> = { turn, step };
    closers.push({ seq, type: 'step/end', time, data: stepEnd });
    seq += 1;
  }
  const turnEnd: Data<'turn/end'> = { turn, reason: { kind: cause } };
  closers.push({ seq, type: 'turn/end', time, data: turnEnd });
  return closers;
}
