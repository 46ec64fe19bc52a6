/** What crash repair added when the page opened a crashed session: the seqs right after the stored log. */
import type { WireEvent } from './wire.js';

/** The repair's seqs `start..end`, how many interrupted results it holds, and the turn it closed. */
export type RepairRange = { start: number; end: number; results: number; turn: number | undefined };

/**
 * The closers `SessionStore.open` appended after `storedLength` stored events: everything up to the
 * plain `session/end-seed` that starts the new lifecycle. `undefined` when nothing was repaired.
 */
export function repairRange(events: readonly WireEvent[], storedLength: number): RepairRange | undefined {
  let end = storedLength - 1;
  let results = 0;
  let turn: number | undefined;
  for (const event of events.slice(storedLength)) {
    if (event.type === 'session/end-seed') break;
    end = event.seq;
    if (event.type === 'tool/result') results += 1;
    if (event.type === 'turn/end') {
      const closed = (event.data as { turn?: unknown } | null)?.turn;
      if (typeof closed === 'number') turn = closed;
    }
  }
  return end < storedLength ? undefined : { start: storedLength, end, results, turn };
}
