/**
 * @module The JSONL directory backend: one file per session at `<dir>/<id>.jsonl`, leases under
 * `<dir>/.leases/<id>/`. Create = temp file + fsync + link (never overwrites) + directory fsync;
 * append = positional write of the batch + fdatasync, truncated back on failure; replace = temp file
 * + fsync + rename + directory fsync.
 *
 * The writer of a held session is `jsonl-writer.ts`; how a new log's bytes are planned and written
 * (inherited lines copied as bytes) is `jsonl-create-plan.ts`.
 *
 * Fencing: every write first checks the lease is still this writer's (no newer generation), and an
 * append checks again after its fdatasync before it counts as done. Taking over an unreleased lease
 * moves the log to a new inode first, so a stale holder (stopped, then resumed) writes into the
 * unlinked old inode and its next check refuses with `SESSION_BUSY`: it adds no byte to the log.
 */
import { statSync } from 'node:fs';
import { copyFile, mkdir, open, readdir, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { errorCode, publishWithoutOverwrite, readWholeFile, syncDirectory, writeAll, type WriteChunk } from './durable-files.js';
import { acquireFileLease, fileLeaseHolder, type FileLease } from './file-lease.js';
import { EMPTY, lineEndsOf, planCreated, provenanceOfHeld, provenanceOfRead, writeCreated, type CreatePlan } from './jsonl-create-plan.js';
import { encodeLog } from './jsonl-log-bytes.js';
import type { JsonlState } from './jsonl-state.js';
import { matchesStamp, readVerifiedStamp, removeStampTemps, removeVerifiedStamp } from './jsonl-verified-stamp.js';
import { makeJsonlWriter } from './jsonl-writer.js';
import { LineEnds } from './line-ends.js';
import type { FastWriter } from '../fast-backend.js';
import { JsonlTextLog } from '../sources/jsonl-text-log.js';
import { VerifiedJsonlLog } from '../sources/verified-jsonl-log.js';
import type { SessionBackend, StoredSessionRef } from '../session-backend.js';
import { asSessionBackend } from '../store/backend-views.js';
import { SessionError } from '../session-error.js';
import { isValidSessionId } from '../session-id.js';
import { SESSION_TEMP_NAME, sessionTempName } from './session-temp-name.js';
import { existsError, notFoundError, writeFailed } from '../store-errors.js';

/** Options of the JSONL backend; `writeChunk` lets tests inject write failures. */
export type JsonlBackendOptions = { dir: string; now?: () => number; writeChunk?: WriteChunk };

const LEASES = '.leases';

/** Opens (creating if needed) a JSONL session directory as a `SessionBackend` (with dsh's fast paths behind it). */
export async function createJsonlBackend(options: JsonlBackendOptions): Promise<SessionBackend> {
  const { dir } = options;
  const now = options.now ?? Date.now;
  const write = options.writeChunk ?? writeAll;
  const leases = join(dir, LEASES);
  await mkdir(leases, { recursive: true });
  await removeOrphanTemps(dir, leases);
  await removeStampTemps(dir);
  const held = new Set<FastWriter>();
  const state: JsonlState = { dir, now, write, held, storedRanges: new Map(), spareCopyBuffer: undefined };
  let closed = false;

  const fileOf = (id: string): string => {
    // Ids are validated by the store; checked again so no caller can ever name a path outside `dir`.
    if (!isValidSessionId(id)) throw new SessionError('INVALID_SESSION_ID', `Invalid session id ${JSON.stringify(id)}.`);
    return join(dir, `${id}.jsonl`);
  };
  const assertOpen = (): void => {
    if (closed) throw new SessionError('STORE_CLOSED', `The session store at ${dir} is closed.`);
  };
  // Synchronous on purpose: one stat costs less than a thread-pool round trip (a create asks once, before its lease).
  // eslint-disable-next-line @typescript-eslint/require-await -- async for its callers
  const exists = async (path: string): Promise<boolean> => {
    try {
      statSync(path);
      return true;
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return false;
      throw error;
    }
  };

  return asSessionBackend({
    async create(id, header, events, inherited) {
      assertOpen();
      const path = fileOf(id);
      if (await exists(path)) throw existsError(id);
      let lease: FileLease;
      try {
        lease = await acquireFileLease(leases, id, now);
      } catch (error) {
        // Someone else holds the id: it exists, or is being created right now.
        if (SessionError.is(error) && error.code === 'SESSION_BUSY') throw existsError(id);
        throw error;
      }
      const temp = join(dir, sessionTempName(id));
      // Everything after the lease is taken runs inside this try, so every failure releases it.
      let plan: CreatePlan;
      let created: { handle: FileHandle; crc: number } | undefined;
      try {
        // No second `exists` here: the link below never overwrites, so a log published meanwhile is
        // still refused (SESSION_EXISTS). The store asks first only for an id its caller named.
        plan = await planCreated(state, header, events, inherited);
        try {
          created = await writeCreated(state, temp, plan);
        } catch (error) {
          if (plan.inherited === undefined || !('range' in plan.inherited)) throw error;
          // The source could not be copied (released or closed meanwhile): encode its events instead.
          await unlink(temp).catch(() => undefined);
          plan = { head: encodeLog(header, inherited === undefined ? events : [...inherited.events(), ...events]), rest: EMPTY };
          created = await writeCreated(state, temp, plan);
        }
        if (!(await publishWithoutOverwrite(temp, path))) throw existsError(id);
        await syncDirectory(dir);
      } catch (error) {
        await created?.handle.close().catch(() => undefined);
        await unlink(temp).catch(() => undefined);
        await lease.release();
        throw SessionError.is(error) ? error : writeFailed(id, 'create', error);
      }
      // The handle that wrote the file is the published file's (link and rename keep the inode).
      const { handle, crc } = created;
      const { ends, size } = lineEndsOf(plan);
      return makeJsonlWriter(state, id, path, lease, {
        handle,
        size,
        lines: (inherited?.count ?? 0) + events.length + 1,
        ends,
        current: true,
        crc,
        verified: true,
      });
    },

    async acquire(id) {
      assertOpen();
      const path = fileOf(id);
      if (!(await exists(path))) throw notFoundError(id);
      const lease = await acquireFileLease(leases, id, now);
      let handle: FileHandle;
      try {
        // A takeover from a holder judged dead: give the log a new inode first, so that holder — if it
        // is in fact only stopped — keeps writing into the old, unlinked one.
        if (lease.tookOver) await moveToNewInode(dir, id, path);
        handle = await open(path, 'r+');
      } catch (error) {
        await lease.release();
        if (errorCode(error) === 'ENOENT') throw notFoundError(id);
        throw SessionError.is(error) ? error : writeFailed(id, 'take over', error);
      }
      const { size } = await handle.stat();
      return makeJsonlWriter(state, id, path, lease, {
        handle,
        size,
        lines: -1,
        ends: new LineEnds(),
        current: false,
        crc: 0,
        verified: false,
      });
    },

    async read(id) {
      assertOpen();
      try {
        const [bytes, stamp] = await Promise.all([readWholeFile(fileOf(id)), readVerifiedStamp(dir, id)]);
        // One decode of the whole buffer gives a flat string (a chunked utf8 read is a rope that every
        // later indexOf/slice must flatten first).
        const log = matchesStamp(bytes, stamp) ? new VerifiedJsonlLog(bytes) : new JsonlTextLog(bytes.toString('utf8'));
        return { log, provenance: provenanceOfRead(log) };
      } catch (error) {
        if (errorCode(error) === 'ENOENT') throw notFoundError(id);
        throw error;
      }
    },

    heldProvenance(id) {
      return provenanceOfHeld(state, id);
    },

    exists(id) {
      return exists(fileOf(id));
    },

    async list() {
      assertOpen();
      const refs: StoredSessionRef[] = [];
      for (const name of await readdir(dir)) {
        if (!name.endsWith('.jsonl')) continue;
        const id = name.slice(0, -'.jsonl'.length);
        if (!isValidSessionId(id)) continue;
        try {
          const info = await stat(join(dir, name));
          refs.push({ id, stamp: `${info.size}:${info.mtimeMs}:${info.ino}` });
        } catch (error) {
          if (errorCode(error) !== 'ENOENT') throw error;
        }
      }
      return refs;
    },

    holder(id) {
      return fileLeaseHolder(leases, id);
    },

    async delete(id) {
      assertOpen();
      const path = fileOf(id);
      if (!(await exists(path))) throw notFoundError(id);
      const lease = await acquireFileLease(leases, id, now);
      try {
        await unlink(path);
        await removeVerifiedStamp(dir, id);
        await syncDirectory(dir);
      } catch (error) {
        if (errorCode(error) === 'ENOENT') throw notFoundError(id);
        throw error;
      } finally {
        await lease.release();
      }
    },

    async close() {
      closed = true;
      for (const writer of [...held]) await writer.release();
    },
  });
}

/** Copies the log to a new file (fsynced) and renames it over the old one: same bytes, new inode. */
async function moveToNewInode(dir: string, id: string, path: string): Promise<void> {
  const temp = join(dir, sessionTempName(id));
  try {
    await copyFile(path, temp);
    const handle = await open(temp, 'r+');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
    await syncDirectory(dir);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}

/**
 * Removes temp files left by writers that died mid-create, mid-rewrite or mid-`migrate --write`:
 * every writer of a session's log holds its lease while its temp file exists, so a temp file of a
 * session whose lease no live process holds is a leftover (never a live writer's).
 */
async function removeOrphanTemps(dir: string, leases: string): Promise<void> {
  for (const name of await readdir(dir)) {
    const match = SESSION_TEMP_NAME.exec(name);
    if (match === null) continue;
    if ((await fileLeaseHolder(leases, match[1] as string)) !== undefined) continue;
    await unlink(join(dir, name)).catch(() => undefined);
  }
}
