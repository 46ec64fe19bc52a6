import type { SessionEvent } from 'dsh-codec';
import { HostError } from './host-error.js';

/**
 * The fork cut for one observation (SPEC §5.4). An explicit `atSeq` is returned unchanged when it
 * is a seq of `events`, else `INVALID_CUT`. Omitted: the latest closed turn plus its independent
 * tail, stopping before the next `turn/start` or `input/queued`; with no closed turn, the
 * standalone prefix before the first of those (`-1` when it is empty).
 */
export function selectForkCut(events: readonly SessionEvent[], atSeq?: number): number {
  if (atSeq !== undefined) return checkExplicitCut(events, atSeq);
  let start = 0;
  for (let index = events.length - 1; index >= 0; index--) {
    if (events[index]?.type === 'turn/end') {
      start = index + 1;
      break;
    }
  }
  for (let index = start; index < events.length; index++) {
    const type = events[index]?.type;
    if (type === 'turn/start' || type === 'input/queued') return index - 1;
  }
  return events.length - 1;
}

function checkExplicitCut(events: readonly SessionEvent[], atSeq: number): number {
  const lastSeq = events.length - 1;
  if (Number.isInteger(atSeq) && atSeq >= 0 && atSeq <= lastSeq) return atSeq;
  const where = lastSeq < 0 ? 'the observation has no events' : `the observation's seqs are 0..${lastSeq}`;
  throw new HostError('INVALID_CUT', `Cannot fork at seq ${String(atSeq)}: expected an existing event seq; ${where}.`);
}
