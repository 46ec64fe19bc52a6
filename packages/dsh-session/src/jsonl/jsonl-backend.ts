/**
 * @module The JSONL directory backend: one file per session at `<dir>/<id>.jsonl`, leases under
 * `<dir>/.leases/<id>/`, verified stamps under `.verified/`, summaries under `.summaries/`. Create = temp file + fsync + link (never overwrites) + directory fsync;
 * append = positional write of the batch + fdatasync, truncated back on failure; replace = temp file
 * + fsync + rename + directory fsync.
 *
 * A new log is `create-jsonl-log.ts` (its bytes planned and written, inherited lines copied as bytes,
 * by `jsonl-create-plan.ts`), taking over an existing one `acquire-jsonl-log.ts`, the writer of a held
 * session `jsonl-writer.ts`, the paths `jsonl-paths.ts`.
 *
 * Fencing: every write first checks the lease is still this writer's (no newer generation), and an
 * append checks again after its fdatasync before it counts as done. Taking over an unreleased lease
 * moves the log to a new inode first, so a stale holder (stopped, then resumed) writes into the
 * unlinked old inode and its next check refuses with `SESSION_BUSY`: it adds no byte to the log.
 */
import { statSync } from 'node:fs';
import { mkdir, readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { acquireJsonlLog } from './acquire-jsonl-log.js';
import { createJsonlLog } from './create-jsonl-log.js';
import { errorCode, readWholeFile, syncDirectory, writeAll, type WriteChunk } from './durable-files.js';
import { acquireFileLease, fileLeaseHolder } from './file-lease.js';
import { provenanceOfHeld, provenanceOfRead, provenanceOfSegmented } from './jsonl-create-plan.js';
import { fileExists, leasesDir, logFile } from './jsonl-paths.js';
import type { JsonlState } from './jsonl-state.js';
import { removeSummaryFile, removeSummaryTemps } from './jsonl-summary-file.js';
import { matchesStamp, readVerifiedStamp, removeStampTemps, removeVerifiedStamp } from './jsonl-verified-stamp.js';
import { manifestOf, materialize } from './jsonl-manifest.js';
import { readJsonlSummary } from './read-jsonl-summary.js';
import { SegmentedJsonlLog } from './segmented-jsonl-log.js';
import { collectSegments } from './segments/collect-segments.js';
import { createSegmentStore } from './segments/segment-store.js';
import { acquireSegmentsLease } from './segments/segments-lease.js';
import type { FastWriter } from '../fast-backend.js';
import { JsonlTextLog } from './jsonl-text-log.js';
import { VerifiedJsonlLog } from './verified-jsonl-log.js';
import type { SessionBackend, StoredSessionRef } from '../session-backend.js';
import { asSessionBackend } from '../backend-views.js';
import { SessionError } from '../session-error.js';
import { isValidSessionId } from '../session-id.js';
import { removeOrphanTemps } from './remove-orphan-temps.js';
import { notFoundError } from '../store-errors.js';

/** Options of the JSONL backend; `writeChunk` lets tests inject write failures. */
export type JsonlBackendOptions = { dir: string; now?: () => number; writeChunk?: WriteChunk };

/** Opens (creating if needed) a JSONL session directory as a `SessionBackend` (with dsh's fast paths behind it). */
export async function createJsonlBackend(options: JsonlBackendOptions): Promise<SessionBackend> {
  const { dir } = options;
  const now = options.now ?? Date.now;
  const write = options.writeChunk ?? writeAll;
  const leases = leasesDir(dir);
  await mkdir(leases, { recursive: true });
  await removeOrphanTemps(dir);
  await removeStampTemps(dir);
  await removeSummaryTemps(dir);
  const held = new Set<FastWriter>();
  const segments = createSegmentStore({ dir, now, writeChunk: write });
  const state: JsonlState = { dir, now, write, held, storedRanges: new Map(), segments, spareCopyBuffer: undefined };
  let closed = false;
  const assertOpen = (): void => {
    if (closed) throw new SessionError('STORE_CLOSED', `The session store at ${dir} is closed.`);
  };

  /** Removes the segments no manifest names any more, when no other process holds the folder's lease; a cache-like chore, never failing its caller. */
  const collectQuietly = async (): Promise<void> => {
    try {
      const lease = await acquireSegmentsLease(segments, 0);
      try {
        await collectSegments(segments, lease);
      } finally {
        await lease.release();
      }
    } catch {
      // Busy, a header that cannot be read, or storage refusing: the segments stay until a later delete.
    }
  };

  return asSessionBackend({
    async create(id, header, events, inherited) {
      assertOpen();
      return await createJsonlLog(state, id, header, events, inherited);
    },

    async acquire(id) {
      assertOpen();
      return await acquireJsonlLog(state, id);
    },

    async read(id) {
      assertOpen();
      try {
        const [bytes, stamp] = await Promise.all([readWholeFile(logFile(dir, id)), readVerifiedStamp(dir, id)]);
        // A manifest is read with its segments: every reader sees one self-contained log (the stamp
        // covers the manifest's own bytes; each segment is checked by its digest).
        const manifest = manifestOf(bytes);
        // A manifest its stamp vouches for is read lazily: a segment only when one of its events is read.
        if (manifest !== undefined && matchesStamp(bytes, stamp)) {
          const log = new SegmentedJsonlLog(segments, bytes, manifest);
          return { log, provenance: provenanceOfSegmented(log, id) };
        }
        const whole = manifest === undefined ? bytes : await materialize(segments, bytes, manifest);
        // One decode of the whole buffer gives a flat string (a chunked utf8 read is a rope that every
        // later indexOf/slice must flatten first).
        const log = matchesStamp(bytes, stamp) ? new VerifiedJsonlLog(whole) : new JsonlTextLog(whole.toString('utf8'));
        return { log, provenance: provenanceOfRead(log, { manifest }) };
      } catch (error) {
        if (errorCode(error) === 'ENOENT') throw notFoundError(id);
        throw error;
      }
    },

    async readSummary(id) {
      assertOpen();
      return await readJsonlSummary(dir, id, segments);
    },

    heldProvenance(id) {
      return provenanceOfHeld(state, id);
    },

    exists(id) {
      return fileExists(logFile(dir, id));
    },

    async list() {
      assertOpen();
      const refs: StoredSessionRef[] = [];
      for (const name of await readdir(dir)) {
        if (!name.endsWith('.jsonl')) continue;
        const id = name.slice(0, -'.jsonl'.length);
        if (!isValidSessionId(id)) continue;
        try {
          // Synchronous: one metadata call per session, cheaper than its thread-pool round trip (as the leases are).
          const info = statSync(join(dir, name));
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
      const path = logFile(dir, id);
      if (!(await fileExists(path))) throw notFoundError(id);
      const lease = await acquireFileLease(leases, id, now);
      try {
        await unlink(path);
        await removeVerifiedStamp(dir, id);
        await removeSummaryFile(dir, id);
        await syncDirectory(dir);
      } catch (error) {
        if (errorCode(error) === 'ENOENT') throw notFoundError(id);
        throw error;
      } finally {
        await lease.release();
      }
      await collectQuietly();
    },

    async close() {
      closed = true;
      for (const writer of [...held]) await writer.release();
    },
  });
}
