/**
 * The JSONL directory backend: one file per session at `<dir>/<id>.jsonl`, leases under
 * `<dir>/.leases/<id>/`. Create = temp file + fsync + link (never overwrites) + directory fsync;
 * append = positional write of the batch + fdatasync, truncated back on failure; replace = temp file
 * + fsync + rename + directory fsync.
 *
 * Fencing: every write first checks the lease is still this writer's (no newer generation), and an
 * append checks again after its fdatasync before it counts as done. Taking over an unreleased lease
 * moves the log to a new inode first, so a stale holder (stopped, then resumed) writes into the
 * unlinked old inode and its next check refuses with `SESSION_BUSY`: it adds no byte to the log.
 */
import { copyFile, mkdir, open, readdir, readFile, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { CURRENT_FORMAT_VERSION, encodeHeader, serializeEvent, type SessionEvent, type SessionHeader } from 'dsh-codec';
import {
  errorCode,
  publishWithoutOverwrite,
  syncDirectory,
  writeAll,
  writeFileDurably,
  type WriteChunk,
} from './durable-files.js';
import { acquireFileLease, fileLeaseHolder, type FileLease } from './file-lease.js';
import type { InheritedRecords, SessionBackend, SessionWriter, StoredLog, StoredSessionRef } from './session-backend.js';
import { SessionError } from './session-error.js';
import { SESSION_TEMP_NAME, sessionTempName } from './session-temp-name.js';
import { isValidSessionId } from './session-id.js';
import { LineEnds } from './line-ends.js';
import { keepBackup, keepTornTail } from './log-backups.js';
import { existsError, notFoundError } from './store-errors.js';

/** Options of the JSONL backend; `writeChunk` lets tests inject write failures. */
export type JsonlBackendOptions = { dir: string; now?: () => number; writeChunk?: WriteChunk };

const LEASES = '.leases';
const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/** The JSONL lines of events the store hands over: every one was validated by its Session (or the codec). */
function serializeEvents(events: readonly SessionEvent[]): string {
  let text = '';
  for (const event of events) text += serializeEvent(event);
  return text;
}

function encodeLog(header: SessionHeader, events: readonly SessionEvent[]): Buffer {
  return Buffer.from(encodeHeader(header) + serializeEvents(events), 'utf8');
}

function countNewlines(bytes: Buffer): number {
  let count = 0;
  for (let newline = bytes.indexOf(NEWLINE); newline !== -1; newline = bytes.indexOf(NEWLINE, newline + 1)) count += 1;
  return count;
}

/** Whether the first line of `bytes` (ending at `end`) is a V4 or V5 header, so the lines after it are V5 events (V4's are unchanged in V5). */
function startsWithV4Header(bytes: Buffer, end: number): boolean {
  try {
    const header = JSON.parse(bytes.toString('utf8', 0, end)) as unknown;
    const version = typeof header === 'object' && header !== null ? (header as { version?: unknown }).version : undefined;
    return version === 4 || version === CURRENT_FORMAT_VERSION;
  } catch {
    return false;
  }
}

const EMPTY = Buffer.alloc(0);
/** The largest piece of a stored range copied at once. */
const COPY_CHUNK = 4 * 1024 * 1024;

/**
 * Where a held session's first events lie in its file: `ends` holds the offset after each line (the
 * header's first), `size` the writer's durable size and `writing` whether a batch is being written.
 */
type StoredRange = { handle: FileHandle; start: number; end: number; ends: LineEnds; count: number; size: number; writing: boolean };

/** A new log to write: the header (or the whole encoded log), inherited lines, the other events. */
type CreatePlan = { head: Buffer; inherited?: { bytes: Buffer } | { range: StoredRange }; rest: Buffer };

/**
 * Whether a held session's file still is what its writer wrote: a size other than the durable size
 * (or more, while a batch is being written) means it was changed behind the lease.
 */
async function storedRangeIsIntact(range: StoredRange): Promise<boolean> {
  const { size } = await range.handle.stat();
  return size === range.size || (range.writing && size > range.size);
}

/** Fills `bytes` from `position` of an open file. */
async function readExactly(handle: FileHandle, bytes: Buffer, position: number): Promise<void> {
  let offset = 0;
  while (offset < bytes.length) {
    const { bytesRead } = await handle.read(bytes, offset, bytes.length - offset, position + offset);
    if (bytesRead === 0) throw new Error(`expected ${String(bytes.length)} bytes at offset ${String(position)}, the file ended after ${String(offset)}`);
    offset += bytesRead;
  }
}

/** The line ends and size of a planned log (a copied range shares its source's line ends). */
function lineEndsOf(plan: CreatePlan): { ends: LineEnds; size: number } {
  let size = plan.head.length;
  let ends: LineEnds;
  if (plan.inherited !== undefined && 'range' in plan.inherited) {
    const { range } = plan.inherited;
    ends = LineEnds.inheriting(size, range.ends, range.count, size - range.start);
    size += range.end - range.start;
  } else {
    ends = new LineEnds();
    ends.scan(plan.head, 0);
    if (plan.inherited !== undefined) {
      ends.scan(plan.inherited.bytes, size);
      size += plan.inherited.bytes.length;
    }
  }
  ends.scan(plan.rest, size);
  return { ends, size: size + plan.rest.length };
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

function leaseLost(id: string, path: string): SessionError {
  return new SessionError(
    'SESSION_BUSY',
    `Lost the lease on session ${id}: another process took it over, so nothing more is written to ${path} by this writer. Reopen the session (or fork it) to continue.`,
    { sessionId: id },
  );
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
  await removeOrphanTemps(dir, leases);
  const held = new Set<SessionWriter>();
  /** For each session held here: where its first `count` durable V4 event lines lie in its file. */
  const storedRanges = new Map<string, (count: number) => StoredRange | undefined>();
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

  /**
   * A writer over an open file; `size` and `lines` describe the durable bytes, `ends` the offset after
   * each durable line (the header's first) and `v4` whether those lines are V4 records.
   */
  const makeWriter = (
    id: string,
    path: string,
    lease: FileLease,
    initial: { handle: FileHandle; size: number; lines: number; ends: LineEnds; v4: boolean },
  ): SessionWriter => {
    let { handle, size, lines, ends, v4 } = initial;
    let endsWithNewline = true;
    let dirty = false;
    let released = false;
    let lost = false;
    const owned = (): void => {
      if (released) throw new SessionError('SESSION_CLOSED', `The lease on session ${id} was released; reopen it to write.`, { sessionId: id });
      if (lost) throw leaseLost(id, path);
    };
    /** The fencing check: throws `SESSION_BUSY` once a newer lease generation exists. */
    const fenced = async (): Promise<void> => {
      owned();
      if (await lease.stillHeld()) return;
      lost = true;
      throw leaseLost(id, path);
    };
    const writer: SessionWriter = {
      async read(): Promise<StoredLog> {
        owned();
        const bytes = await readFile(path);
        size = bytes.length;
        ends = new LineEnds();
        ends.scan(bytes, 0);
        lines = ends.length;
        // Lines ending in CR are rewritten in LF at the first write, never copied into a fork child.
        v4 = lines > 0 && startsWithV4Header(bytes, ends.at(0) - 1) && !bytes.includes(CARRIAGE_RETURN);
        endsWithNewline = size === 0 || bytes[size - 1] === NEWLINE;
        return { kind: 'jsonl', text: bytes.toString('utf8') };
      },
      async append(expectedNextSeq, events) {
        await fenced();
        const storedEvents = lines - 1;
        if (!endsWithNewline || storedEvents !== expectedNextSeq || events[0]?.seq !== expectedNextSeq) {
          throw new SessionError(
            'CORRUPT',
            `Append to ${path}: expected the file to end with a complete line at seq ${expectedNextSeq - 1} and the batch to start at seq ${expectedNextSeq}; the file holds ${storedEvents} events${endsWithNewline ? '' : ' and a torn line'}, the batch starts at ${String(events[0]?.seq)}.`,
            { sessionId: id },
          );
        }
        const bytes = Buffer.from(serializeEvents(events), 'utf8');
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
        // Taken over while writing: the batch went to the old inode (or was copied as unacknowledged
        // bytes the new holder repairs); either way it does not count as written.
        await fenced();
        ends.scan(bytes, size);
        size += bytes.length;
        lines += events.length;
      },
      async replace(header, events) {
        await fenced();
        const bytes = encodeLog(header, events);
        const temp = join(dir, sessionTempName(id));
        let backup: string | undefined;
        let renamed = false;
        try {
          await writeFileDurably(temp, bytes, write);
          // The log as it was stays beside the new one (a link to its inode: no copy).
          backup = await keepBackup(path, now());
          // Checked again just before the rename: a takeover meanwhile moved the log, which we must not replace.
          await fenced();
          await rename(temp, path);
          renamed = true;
          await syncDirectory(dir);
        } catch (error) {
          await unlink(temp).catch(() => undefined);
          // Not replaced: the backup would only be a second name of the unchanged log.
          if (backup !== undefined && !renamed) await unlink(backup).catch(() => undefined);
          if (SessionError.is(error)) throw error;
          throw writeFailed(id, 'rewrite', error);
        }
        await handle.close().catch(() => undefined);
        handle = await open(path, 'r+');
        size = bytes.length;
        lines = events.length + 1;
        ends = new LineEnds();
        ends.scan(bytes, 0);
        v4 = true;
        endsWithNewline = true;
        dirty = false;
      },
      async discardTornTail(line) {
        await fenced();
        const bytes = await readFile(path);
        const offset = lineOffset(bytes, line);
        try {
          // The dropped bytes stay beside the log, durable before they leave it.
          if (offset < bytes.length) {
            await keepTornTail(path, bytes.subarray(offset), now());
            await syncDirectory(dir);
          }
          await handle.truncate(offset);
          await handle.datasync();
        } catch (error) {
          throw writeFailed(id, 'truncate the torn tail of', error);
        }
        size = offset;
        ends = new LineEnds();
        ends.scan(bytes, 0, offset);
        lines = ends.length;
        endsWithNewline = true;
      },
      async release() {
        if (released) return;
        released = true;
        held.delete(writer);
        if (storedRanges.get(id) === range) storedRanges.delete(id);
        await handle.close().catch(() => undefined);
        await lease.release();
      },
    };
    // Lines are only handed out for copying while this writer holds the lease and they are durable V4.
    const range = (count: number) => {
      if (released || !v4 || !endsWithNewline || count < 0 || count >= ends.length) return undefined;
      return { handle, start: ends.at(0), end: ends.at(count), ends, count, size, writing: dirty };
    };
    held.add(writer);
    storedRanges.set(id, range);
    return writer;
  };

  // One reusable copy buffer: already-touched memory copies far faster than a fresh allocation.
  let spareCopyBuffer: Buffer | undefined;

  /**
   * How a new log is written: the header, then the inherited lines — copied from the source's durable
   * file held here, or taken from the text the store validated — when possible, then the other events.
   */
  const planCreated = async (header: SessionHeader, events: readonly SessionEvent[], inherited: InheritedRecords | undefined): Promise<CreatePlan> => {
    const encoded = (): CreatePlan => ({ head: encodeLog(header, events), rest: EMPTY });
    const count = inherited?.count ?? 0;
    if (inherited === undefined || count <= 0 || count > events.length) return encoded();
    const head = Buffer.from(encodeHeader(header), 'utf8');
    const rest = Buffer.from(serializeEvents(events.slice(count)), 'utf8');
    if (inherited.kind === 'jsonl') {
      const bytes = Buffer.from(inherited.text, 'utf8');
      if (bytes[bytes.length - 1] !== NEWLINE || countNewlines(bytes) !== count) return encoded();
      return { head, inherited: { bytes }, rest };
    }
    const range = storedRanges.get(inherited.sourceId)?.(count);
    // A source released, rewritten or changed behind its lease is not copied: its events are encoded.
    if (range === undefined || !(await storedRangeIsIntact(range).catch(() => false))) return encoded();
    return { head, inherited: { range }, rest };
  };

  /** Writes a planned log to a new file and fsyncs it; copies a stored range through the spare buffer. */
  const writeCreated = async (path: string, plan: CreatePlan): Promise<void> => {
    const handle = await open(path, 'wx');
    try {
      let position = 0;
      await write(handle, plan.head, position);
      position += plan.head.length;
      if (plan.inherited !== undefined && 'bytes' in plan.inherited) {
        await write(handle, plan.inherited.bytes, position);
        position += plan.inherited.bytes.length;
      } else if (plan.inherited !== undefined) {
        const { range } = plan.inherited;
        const total = range.end - range.start;
        let buffer = spareCopyBuffer;
        spareCopyBuffer = undefined;
        if (buffer === undefined || buffer.length < Math.min(total, COPY_CHUNK)) buffer = Buffer.allocUnsafe(Math.min(Math.max(total, 1 << 16), COPY_CHUNK));
        try {
          for (let offset = 0; offset < total; ) {
            const chunk = buffer.subarray(0, Math.min(buffer.length, total - offset));
            await readExactly(range.handle, chunk, range.start + offset);
            if (offset + chunk.length === total && chunk[chunk.length - 1] !== NEWLINE) throw new Error('the copied lines do not end with a newline');
            await write(handle, chunk, position);
            position += chunk.length;
            offset += chunk.length;
          }
        } finally {
          spareCopyBuffer = buffer;
        }
      }
      await write(handle, plan.rest, position);
      await handle.sync();
    } finally {
      await handle.close();
    }
  };

  return {
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
      try {
        plan = await planCreated(header, events, inherited);
        if (await exists(path)) throw existsError(id);
        try {
          await writeCreated(temp, plan);
        } catch (error) {
          if (plan.inherited === undefined || !('range' in plan.inherited)) throw error;
          // The source could not be copied (released or closed meanwhile): encode its events instead.
          await unlink(temp).catch(() => undefined);
          plan = { head: encodeLog(header, events), rest: EMPTY };
          await writeCreated(temp, plan);
        }
        if (!(await publishWithoutOverwrite(temp, path))) throw existsError(id);
        await syncDirectory(dir);
      } catch (error) {
        await unlink(temp).catch(() => undefined);
        await lease.release();
        throw SessionError.is(error) ? error : writeFailed(id, 'create', error);
      }
      let handle: FileHandle;
      try {
        handle = await open(path, 'r+');
      } catch (error) {
        await lease.release();
        throw writeFailed(id, 'open the new file of', error);
      }
      const { ends, size } = lineEndsOf(plan);
      return makeWriter(id, path, lease, { handle, size, lines: events.length + 1, ends, v4: true });
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
      return makeWriter(id, path, lease, { handle, size, lines: -1, ends: new LineEnds(), v4: false });
    },

    async read(id) {
      assertOpen();
      try {
        // One decode of the whole buffer gives a flat string (a chunked utf8 read is a rope that every
        // later indexOf/slice must flatten first).
        return { kind: 'jsonl', text: (await readFile(fileOf(id))).toString('utf8') };
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
