/**
 * @module `acquireSegmentsLease`: the one lease of a JSONL directory's segment folder. A publisher
 * holds it from publishing (or reusing) a segment until the manifest naming it is durable; the
 * collector holds it while it decides what no manifest names and removes it. So no segment a manifest
 * in flight is about to name is ever collected. Its holders keep it for a few syscalls: a taker waits.
 * Publishers of one process share one hold (`shareSegmentsLease`): they exclude the collector, not each
 * other, so concurrent forks (eight peers) never queue behind each other's fsyncs.
 */
import { resolve } from 'node:path';
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

/** A hold of the folder's lease shared by this process's publishers: the lease (being taken, or held) and how many use it. */
type SharedHold = { lease: Promise<SegmentsLease>; users: number };

/** Per segment folder (resolved path), the hold this process's publishers share while any of them publishes. */
const SHARED_HOLDS = new Map<string, SharedHold>();

/**
 * The folder's lease for a publisher: joins the hold other publishers of this process have (taken once,
 * released by the last of them), else takes it as `acquireSegmentsLease` does (waiting up to `waitMs`
 * while a collector or another process holds it). Publishers never exclude each other — each publishes
 * content-addressed files under unique temp names — only the collector, which takes the lease alone.
 */
export async function shareSegmentsLease(store: SegmentStore, waitMs = SEGMENTS_LEASE_WAIT_MS): Promise<SegmentsLease> {
  const key = resolve(store.dir);
  let shared = SHARED_HOLDS.get(key);
  if (shared === undefined) {
    const hold: SharedHold = { lease: acquireSegmentsLease(store, waitMs), users: 0 };
    SHARED_HOLDS.set(key, hold);
    // A failed take is no hold: the next publisher tries again.
    hold.lease.catch(() => {
      if (SHARED_HOLDS.get(key) === hold) SHARED_HOLDS.delete(key);
    });
    shared = hold;
  }
  const hold = shared;
  hold.users += 1;
  let lease: SegmentsLease;
  try {
    lease = await hold.lease;
  } catch (error) {
    hold.users -= 1;
    throw error;
  }
  let released = false;
  return {
    ...lease,
    async release() {
      if (released) return;
      released = true;
      hold.users -= 1;
      if (hold.users > 0) return;
      if (SHARED_HOLDS.get(key) === hold) SHARED_HOLDS.delete(key);
      await lease.release();
    },
  };
}
