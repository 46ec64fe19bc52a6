/**
 * @module `acquireSegmentsLease`: the one lease of a JSONL directory's segment folder. A publisher
 * holds it from publishing (or reusing) a segment until the manifest naming it is durable; the
 * collector holds it while it decides what no manifest names and removes it. So no segment a manifest
 * in flight is about to name is ever collected. Its holders keep it for a few syscalls: a taker waits.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { acquireFileLease, type FileLease } from '../file-lease.js';
import { leasesDir } from '../jsonl-paths.js';
import { SessionError } from '../../session-error.js';
import { SEGMENTS_LEASE } from './segment-paths.js';
import type { SegmentStore } from './segment-store.js';

/** The segment folder's lease, held. `assertHeld()` refuses with `SESSION_BUSY` once another process took it over. */
export type SegmentsLease = FileLease & { assertHeld(): Promise<void> };

/** How long a taker waits for the folder's lease by default before `SESSION_BUSY`. */
export const SEGMENTS_LEASE_WAIT_MS = 10_000;

/**
 * Takes the segment folder's lease, waiting (up to `waitMs`) while a live process holds it; then
 * `SESSION_BUSY` naming the holder. A dead holder's lease is taken over at once.
 */
export async function acquireSegmentsLease(store: SegmentStore, waitMs = SEGMENTS_LEASE_WAIT_MS): Promise<SegmentsLease> {
  const started = store.now();
  for (let attempt = 0; ; attempt += 1) {
    let lease: FileLease;
    try {
      lease = await acquireFileLease(leasesDir(store.dir), SEGMENTS_LEASE, store.now);
    } catch (error) {
      if (!SessionError.is(error) || error.code !== 'SESSION_BUSY' || store.now() - started >= waitMs) throw busySegments(store, error);
      await sleep(Math.min(2 ** Math.min(attempt, 5), 25));
      continue;
    }
    return {
      ...lease,
      async assertHeld() {
        if (!(await lease.stillHeld())) {
          throw new SessionError(
            'SESSION_BUSY',
            `Lost the lease on the segment folder of ${store.dir}: another process took it over, so this process publishes nothing more under it.`,
          );
        }
      },
    };
  }
}

/** `SESSION_BUSY` for the folder's lease, naming its holder; any other failure as it came. */
function busySegments(store: SegmentStore, error: unknown): unknown {
  if (!SessionError.is(error) || error.code !== 'SESSION_BUSY' || error.holder === undefined) return error;
  const { pid, host, since } = error.holder;
  return new SessionError(
    'SESSION_BUSY',
    `The segment folder of ${store.dir} is held by pid ${String(pid)} on ${host} since ${new Date(since).toISOString()}; expected it free within ${String(SEGMENTS_LEASE_WAIT_MS)} ms. Try again.`,
    { holder: error.holder, cause: error },
  );
}
