/**
 * @module The one fork-cut rule (SPEC §5): an explicit seq checked, or the latest closed turn when none is named.
 */
import type { SessionEvent } from 'dsh-codec';
import { arraySource, type EventSource } from '../sources/event-source.js';
import { eventSourceOf, type SessionObservation } from './session-observation.js';
import { SessionError } from '../session-error.js';

/** The fork point a host takes when the user names none (SPEC §5.4's omitted `atSeq`). */
export const LATEST_CLOSED_TURN = 'latest-closed-turn';

/**
 * The cut a fork takes from one observation's events (SPEC §5.2, §5.4). A seq is kept exactly
 * (`-0` is 0) when it is a seq of `events`; anything else but `LATEST_CLOSED_TURN` (a non-integer,
 * a string, `undefined`) is `INVALID_CUT` naming the last seq. `LATEST_CLOSED_TURN`: the latest
 * closed turn plus its independent tail, stopping before the next `turn/start` or `input/queued`;
 * with no closed turn, the standalone prefix before the first of those (`-1`, inherit nothing, when
 * it is empty). This is the only place a fork's cut is checked. An observation is read only where the
 * rule looks (its latest turn), not decoded whole: the cut `store.fork` of that observation takes.
 */
export function selectForkCut(
  events: SessionObservation | readonly SessionEvent[],
  atSeq: number | typeof LATEST_CLOSED_TURN,
  sourceId = 'the source',
): number {
  if (Array.isArray(events)) return selectCut(arraySource(events as readonly SessionEvent[]), atSeq, sourceId);
  const observation = events as SessionObservation;
  return selectCut(eventSourceOf(observation) ?? arraySource(observation.events), atSeq, sourceId);
}

/** @internal `selectForkCut` over a source read by position: only the events the rule looks at are read. */
export function selectCut(events: EventSource, atSeq: number | typeof LATEST_CLOSED_TURN, sourceId = 'the source'): number {
  if (atSeq !== LATEST_CLOSED_TURN) return checkExplicitCut(events.length, atSeq, sourceId);
  const start = events.findLast(['turn/end']) + 1;
  for (let index = start; index < events.length; index++) {
    const type = events.at(index).type;
    if (type === 'turn/start' || type === 'input/queued') return index - 1;
  }
  return events.length - 1;
}

function checkExplicitCut(length: number, atSeq: unknown, sourceId: string): number {
  const lastSeq = length - 1;
  // JSON.parse('{"atSeq":-0}') yields -0: the same seq as 0, never a value to write into a header.
  if (typeof atSeq === 'number' && Number.isSafeInteger(atSeq) && atSeq >= 0 && atSeq <= lastSeq) return atSeq === 0 ? 0 : atSeq;
  const last = lastSeq < 0 ? 'the source has no events' : `the source's last seq is ${lastSeq}: seqs 0..${lastSeq}`;
  const shown =
    typeof atSeq === 'number'
      ? Object.is(atSeq, -0)
        ? '-0'
        : String(atSeq)
      : ((JSON.stringify(atSeq) as string | undefined) ?? typeof atSeq);
  throw new SessionError(
    'INVALID_CUT',
    `Cannot fork ${sourceId} at ${shown}: expected an existing integer event seq (${last}); nothing was created.`,
    {
      sessionId: sourceId,
    },
  );
}
