/**
 * The JSONL directory backend: one file per session at `<dir>/<id>.jsonl`, leases under
 * `<dir>/.leases/<id>/`. Create = temp file + fsync + link (never overwrites) + directory fsync;
 * append = positional write of the batch + fdatasync, truncated back on failure; replace = temp file
 * + fsync + rename + directory fsync.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { encodeEvent, encodeHeader, type SessionEvent, type SessionHeader } from 'dsh-codec';
import {
  errorCode,
  publishWithoutOverwrite,
  syncDirectory,
  writeAll,
  writeFileDurably,
  type WriteChunk,
} from './durable-files.js';
import { acquireFileLease, fileLeaseHolder, type FileLease } from './file-lease.js';
import { currentProcess, isProcessAlive } from './process-identity.js';
import type { SessionBackend, SessionWriter, StoredLog, StoredSessionRef } from './session-backend.js';
import { SessionError } from './session-error.js';
import { isValidSessionId } from './session-id.js';
import { existsError, notFoundError } from './store-errors.js';

/** Options of the JSONL backend; `writeChunk` lets tests inject write failures. */
export type JsonlBackendOptions = { dir: string; now?: () => number; writeChunk?: WriteChunk };

const LEASES = '.leases';
const NEWLINE = 0x0a;

function encodeLog(header: SessionHeader, events: readonly SessionEvent[]): Buffer {
  return Buffer.from(encodeHeader(header) + events.map((event) => encodeEvent(event)).join(''), 'utf8');
}

function countLines(bytes: Uint8Array, end = bytes.length): number {
  let lines = 0;
  for (let index = 0; index < end; index += 1) if (bytes[index] === NEWLINE) lines += 1;
  return lines;
}

/** Byte offset where 1-based `line` starts. */
function lineOffset(bytes: Uint8Array, line: number): number {
  let seen = 1;
  for (let index = 0; index < bytes.length && seen < line; index += 1) {
    if (bytes[index] === NEWLINE) {
      seen += 1;
      if (seen === line) return index + 1;
    }
  }
  return line <= 1 ? 0 : bytes.length;
}

function writeFailed(id: string, what: string, cause: unknown): SessionError {
  return new SessionError('WRITE_FAILED', `Could not ${what} session ${id}: ${(cause as Error).message}`, { sessionId: id, cause });
}

/** Opens (creating if needed) a JSONL session directory as a `SessionBackend`. */
export async function createJsonlBackend(options: JsonlBackendOptions): Promise<SessionBackend> {
  const { dir } = options;
  const now = options.now ?? Date.now;
  const write = options.writeChunk ?? writeAll;
  const leases = join(dir, LEASES);
  await mkdir(leases, { recursive: true });
  await removeOrphanTemps(dir);
  const held = new Set<SessionWriter>();
  let closed = false;

  const fileOf = (id: string): string => {
    // Ids are validated by the store; checked again so no caller can ever name a path outside `dir`.
    if (!isValidSessionId(id)) throw new SessionError('INVALID_SESSION_ID', `Invalid session id ${JSON.stringify(id)}.`);
    return join(dir, `${id}.jsonl`);
  };
  const assertOpen = (): void => {
    if (closed) throw new SessionError('STORE_CLOSED', `The session store at ${dir} is closed.`);
  };
  const exists = async (path: string): Promise<boolean> => {
    try {
      await stat(path);
      return true;
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return false;
      throw error;
    }
  };

  /** A writer over an open file; `size` and `lines` describe the durable bytes. */
  const makeWriter = (id: string, path: string, lease: FileLease, initial: { handle: FileHandle; size: number; lines: number }): SessionWriter => {
    let { handle, size, lines } = initial;
    let endsWithNewline = true;
    let dirty = false;
    let released = false;
    const owned = (): void => {
      if (released) throw new SessionError('SESSION_CLOSED', `The lease on session ${id} was released; reopen it to write.`, { sessionId: id });
    };
    const writer: SessionWriter = {
      async read(): Promise<StoredLog> {
        owned();
        const bytes = await readFile(path);
        size = bytes.length;
        lines = countLines(bytes);
        endsWithNewline = size === 0 || bytes[size - 1] === NEWLINE;
        return { kind: 'jsonl', text: bytes.toString('utf8') };
      },
      async append(expectedNextSeq, events) {
        owned();
        const storedEvents = lines - 1;
        if (!endsWithNewline || storedEvents !== expectedNextSeq || events[0]?.seq !== expectedNextSeq) {
          throw new SessionError(
            'CORRUPT',
            `Append to ${path}: expected the file to end with a complete line at seq ${expectedNextSeq - 1} and the batch to start at seq ${expectedNextSeq}; the file holds ${storedEvents} events${endsWithNewline ? '' : ' and a torn line'}, the batch starts at ${String(events[0]?.seq)}.`,
            { sessionId: id },
          );
        }
        const bytes = Buffer.from(events.map((event) => encodeEvent(event)).join(''), 'utf8');
        try {
          // A previous failed write may have left bytes past the durable end: cut them first.
          if (dirty) await handle.truncate(size);
          dirty = true;
          await write(handle, bytes, size);
          await handle.datasync();
          dirty = false;
        } catch (error) {
          // Roll back: the file must never keep a partial batch that a later batch would follow.
          try {
            await handle.truncate(size);
            await handle.datasync();
            dirty = false;
          } catch {
            // Still dirty: the next append truncates before writing.
          }
          throw writeFailed(id, `append ${events.length} events to`, error);
        }
        size += bytes.length;
        lines += events.length;
      },
      async replace(header, events) {
        owned();
        const bytes = encodeLog(header, events);
        const temp = join(dir, `.${id}.${process.pid}.${randomUUID()}.tmp`);
        try {
          await writeFileDurably(temp, bytes, write);
          await rename(temp, path);
          await syncDirectory(dir);
        } catch (error) {
          await unlink(temp).catch(() => undefined);
          throw writeFailed(id, 'rewrite', error);
        }
        await handle.close().catch(() => undefined);
        handle = await open(path, 'r+');
        size = bytes.length;
        lines = events.length + 1;
        endsWithNewline = true;
        dirty = false;
      },
      async discardTornTail(line) {
        owned();
        const bytes = await readFile(path);
        const offset = lineOffset(bytes, line);
        try {
          await handle.truncate(offset);
          await handle.datasync();
        } catch (error) {
          throw writeFailed(id, 'truncate the torn tail of', error);
        }
        size = offset;
        lines = countLines(bytes, offset);
        endsWithNewline = true;
      },
      async release() {
        if (released) return;
        released = true;
        held.delete(writer);
        await handle.close().catch(() => undefined);
        await lease.release();
      },
    };
    held.add(writer);
    return writer;
  };

  return {
    async create(id, header, events) {
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
      const bytes = encodeLog(header, events);
      const temp = join(dir, `.${id}.${process.pid}.${randomUUID()}.tmp`);
      try {
        if (await exists(path)) throw existsError(id);
        await writeFileDurably(temp, bytes, write);
        if (!(await publishWithoutOverwrite(temp, path))) throw existsError(id);
        await syncDirectory(dir);
      } catch (error) {
        await unlink(temp).catch(() => undefined);
        await lease.release();
        throw SessionError.is(error) ? error : writeFailed(id, 'create', error);
      }
      const handle = await open(path, 'r+');
      return makeWriter(id, path, lease, { handle, size: bytes.length, lines: events.length + 1 });
    },

    async acquire(id) {
      assertOpen();
      const path = fileOf(id);
      if (!(await exists(path))) throw notFoundError(id);
      const lease = await acquireFileLease(leases, id, now);
      let handle: FileHandle;
      try {
        handle = await open(path, 'r+');
      } catch (error) {
        await lease.release();
        throw errorCode(error) === 'ENOENT' ? notFoundError(id) : error;
      }
      const { size } = await handle.stat();
      return makeWriter(id, path, lease, { handle, size, lines: -1 });
    },

    async read(id) {
      assertOpen();
      try {
        return { kind: 'jsonl', text: await readFile(fileOf(id), 'utf8') };
      } catch (error) {
        if (errorCode(error) === 'ENOENT') throw notFoundError(id);
        throw error;
      }
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
  };
}

/** Removes temp files left by processes that died mid-create or mid-rewrite (never a live one's). */
async function removeOrphanTemps(dir: string): Promise<void> {
  const me = currentProcess();
  for (const name of await readdir(dir)) {
    const match = /^\.[A-Za-z0-9_-]{1,128}\.([0-9]+)\.[0-9a-f-]+\.tmp$/.exec(name);
    if (match === null) continue;
    if (isProcessAlive({ pid: Number(match[1]), host: me.host })) continue;
    await unlink(join(dir, name)).catch(() => undefined);
  }
}

