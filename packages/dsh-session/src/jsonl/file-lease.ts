/**
 * The single-writer lease of the JSONL store, safe across processes on one host without native locks.
 *
 * Each session has a folder of lease *generations* `<leases>/<id>/<gen>`: small JSON files, each
 * published complete with `link()` (which never overwrites). The highest generation is the lease's
 * state: held by its process, or free when marked released or when its process is gone. Taking the
 * lease means publishing generation `max + 1`; `link()` lets exactly one of any racers win it, so a
 * dead holder's lease is taken over by one process only. Generations never go backwards (the newest
 * file is never deleted), and a winner checks it is still the newest before it counts as holder.
 *
 * Fencing: a holder can lose its lease without knowing it (stopped with SIGSTOP while another process
 * wrongly judged it dead, or an operator broke the lease). `stillHeld()` says whether its generation is
 * still the newest; writers call it before and after each batch, and a taker over an unreleased
 * generation (`tookOver`) moves the log to a new inode so a stale holder's open handle writes nowhere.
 *
 * Every file operation here is synchronous on purpose: each is one small metadata syscall on a local
 * folder (tens of microseconds), while a thread-pool round trip costs more than the call itself and a
 * fork or create takes about eight of them (measured: about a third of a small fork's latency).
 */
import { randomUUID } from 'node:crypto';
import { linkSync, mkdirSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { currentProcess, isProcessAlive, type ProcessIdentity } from './process-identity.js';
import type { LeaseHolder } from '../session-error.js';
import { busyError } from '../store-errors.js';

type LeaseRecord = ProcessIdentity & { since: number; token: string; released?: true };

/**
 * A held lease; `release()` publishes a released generation so the next writer may take it.
 * `tookOver`: the previous generation was not released (its holder was judged dead).
 * `stillHeld()`: whether no newer generation has been published since (the fencing check).
 */
export type FileLease = {
  readonly holder: LeaseHolder;
  readonly generation: number;
  readonly tookOver: boolean;
  stillHeld(): Promise<boolean>;
  release(): Promise<void>;
};

const MAX_ATTEMPTS = 50;

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

function generations(folder: string): number[] {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return [];
    throw error;
  }
  return names
    .filter((name) => /^[1-9][0-9]*$/.test(name))
    .map(Number)
    .sort((a, b) => a - b);
}

function readRecord(folder: string, gen: number): LeaseRecord | 'missing' | 'unreadable' {
  try {
    const value: unknown = JSON.parse(readFileSync(join(folder, String(gen)), 'utf8'));
    if (typeof value !== 'object' || value === null) return 'unreadable';
    const record = value as Partial<LeaseRecord>;
    if (typeof record.pid !== 'number' || typeof record.host !== 'string' || typeof record.since !== 'number') return 'unreadable';
    return record as LeaseRecord;
  } catch (error) {
    // A generation is published complete, so an unreadable one only follows a machine crash: stale.
    return errorCode(error) === 'ENOENT' ? 'missing' : 'unreadable';
  }
}

/** Publishes `record` as generation `gen`; false when that generation already exists. */
function publish(folder: string, gen: number, record: LeaseRecord): boolean {
  const temp = join(folder, `.${record.token}.${gen}.tmp`);
  writeFileSync(temp, JSON.stringify(record));
  try {
    linkSync(temp, join(folder, String(gen)));
    return true;
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false;
    throw error;
  } finally {
    unlinkQuietly(temp);
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone, or not ours to remove.
  }
}

function holderOf(record: LeaseRecord): LeaseHolder {
  return { pid: record.pid, host: record.host, since: record.since };
}

/** The state of the newest generation: the live holder's record, or undefined when the lease is free. */
function liveRecord(folder: string, newest: number | undefined): LeaseRecord | undefined | 'retry' {
  if (newest === undefined) return undefined;
  const record = readRecord(folder, newest);
  if (record === 'missing') return 'retry';
  if (record === 'unreadable' || record.released === true || !isProcessAlive(record)) return undefined;
  return record;
}

/** The live holder of `id`'s lease under `root`, if any. */
// eslint-disable-next-line @typescript-eslint/require-await -- async for its callers; the reads are synchronous on purpose (see the module's comment)
export async function fileLeaseHolder(root: string, id: string): Promise<LeaseHolder | undefined> {
  const folder = join(root, id);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
    const record = liveRecord(folder, generations(folder).at(-1));
    if (record !== 'retry') return record === undefined ? undefined : holderOf(record);
  }
  return undefined;
}

/** Takes `id`'s lease under `root`, or fails with `SESSION_BUSY` naming the live holder. */
export async function acquireFileLease(root: string, id: string, now: () => number = Date.now): Promise<FileLease> {
  const folder = join(root, id);
  // Not recursive: a vanished store directory is an error, not something to recreate here.
  try {
    mkdirSync(folder);
  } catch (error) {
    if (errorCode(error) !== 'EEXIST') throw error;
  }
  let lastHolder: LeaseHolder | undefined;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
    const newest = generations(folder).at(-1);
    const live = liveRecord(folder, newest);
    if (live === 'retry') continue;
    if (live !== undefined) throw busyError(id, holderOf(live));
    const previous = newest === undefined ? undefined : readRecord(folder, newest);
    const tookOver = previous !== undefined && (typeof previous === 'string' || previous.released !== true);
    const gen = (newest ?? 0) + 1;
    const record: LeaseRecord = { ...currentProcess(), since: now(), token: randomUUID() };
    if (!publish(folder, gen, record)) continue;
    const after = generations(folder);
    if (after.at(-1) !== gen) {
      // Our generation was a stale view's; someone newer decides. Withdraw and look again.
      unlinkQuietly(join(folder, String(gen)));
      continue;
    }
    for (const older of after) {
      if (older < gen) unlinkQuietly(join(folder, String(older)));
    }
    lastHolder = holderOf(record);
    return {
      holder: lastHolder,
      generation: gen,
      tookOver,
      stillHeld: () => isNewest(folder, gen),
      release: releaser(folder, gen, record),
    };
  }
  const holder = await fileLeaseHolder(root, id);
  throw busyError(id, holder ?? lastHolder ?? { pid: 0, host: 'unknown', since: now() });
}

/**
 * Whether `gen` is still the newest generation in `folder`: one read of a directory of one or two
 * entries, synchronous on purpose. Writers ask before and after every batch, and the answer must not
 * wait behind the thread pool (two round trips per flush cost about a fifth of a fast fdatasync).
 */
// eslint-disable-next-line @typescript-eslint/require-await -- async for its callers; the read itself is synchronous on purpose
async function isNewest(folder: string, gen: number): Promise<boolean> {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return false;
    throw error;
  }
  let newest = 0;
  for (const name of names) if (/^[1-9][0-9]*$/.test(name)) newest = Math.max(newest, Number(name));
  return newest === gen;
}

function releaser(folder: string, gen: number, record: LeaseRecord): () => Promise<void> {
  let released = false;
  // eslint-disable-next-line @typescript-eslint/require-await -- async for its callers; the writes are synchronous on purpose (see the module's comment)
  return async () => {
    if (released) return;
    released = true;
    // A released generation on top frees the lease without ever moving generations backwards.
    const next = gen + 1;
    let published: boolean;
    try {
      published = publish(folder, next, { ...record, token: randomUUID(), released: true });
    } catch (error) {
      // No room for a record (disk full): withdrawing our own generation frees the lease as well.
      // Generations then step back once, which is safe: every older holder is gone or released.
      try {
        unlinkSync(join(folder, String(gen)));
      } catch {
        throw error;
      }
      return;
    }
    if (published) unlinkQuietly(join(folder, String(gen)));
  };
}
