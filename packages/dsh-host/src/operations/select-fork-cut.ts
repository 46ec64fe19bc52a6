/** @module `selectForkCut`: the cut a fork of an event array takes (an exact seq, or the latest closed turn and its standalone tail), for callers holding events. */
import type { SessionEvent } from 'dsh-codec';
import { LATEST_CLOSED_TURN, selectForkCut as selectStoreForkCut } from 'dsh-session';
import { HostError } from '../host-error.js';

/**
 * The fork cut for one observation (SPEC §5.4): dsh-session's rule — the one `store.fork` applies —
 * with its refusal as a `HostError` (`INVALID_CUT`). Explicit `atSeq` is kept exactly when it is a seq of
 * `events`; omitted: the latest closed turn plus its independent tail (`-1` when nothing qualifies).
 */
export function selectForkCut(events: readonly SessionEvent[], atSeq?: number): number {
  try {
    return selectStoreForkCut(events, atSeq ?? LATEST_CLOSED_TURN, 'the observation');
  } catch (error) {
    throw HostError.wrap(error) ?? error;
  }
}
