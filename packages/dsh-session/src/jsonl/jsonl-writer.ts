/**
 * @module The JSONL backend's writer of one held session: appends (positional write + fdatasync, rolled
 * back on failure), rewrites (temp file + backup + rename), torn-tail removal, all fenced by the
 * lease generation, and the line index that lets forks copy its durable lines as bytes.
 */
import { open, readFile, rename, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { readExactlySync, readWholeFile, syncDirectory, writeFileDurably } from './durable-files.js';
import type { FileLease } from './file-lease.js';
import { CARRIAGE_RETURN, encodeLog, lineOffset, NEWLINE, serializeEvents, startsWithCurrentRecordsHeader } from './jsonl-log-bytes.js';
import { manifestOf, materialize, type Manifest } from './jsonl-manifest.js';
import type { JsonlState } from './jsonl-state.js';
import { JsonlResumePoint } from './jsonl-resume-point.js';
import { readVerifiedStamp, writeVerifiedStamp } from './jsonl-verified-stamp.js';
import { LineEnds } from './line-ends.js';
import { keepBackup, keepTornTail } from './log-backups.js';
import { SEAL_AT_BYTES, sealHeldLines } from './seal-held-lines.js';
import { SegmentedJsonlLog } from './segmented-jsonl-log.js';
import type { FastWriter, ResumedLog, StoredRead } from '../fast-backend.js';
import { JsonlTextLog } from './jsonl-text-log.js';
import { VerifiedJsonlLog } from './verified-jsonl-log.js';
import { verifiedLinesSource } from './verified-lines.js';
import { SessionError } from '../session-error.js';
import { sessionTempName } from './session-temp-name.js';
import { leaseLost, writeFailed } from '../store-errors.js';

/**
 * A writer over an open file; `size` and `lines` describe the durable bytes, `ends` the offset after
 * each durable line (the header's first), `current` whether those lines are current-format records, `crc` the CRC-32
 * of the durable bytes and `verified` whether every one of them was validated (then release stamps them).
 * `base` is how many events lie in the segments the file's manifest names (0 for a self-contained log):
 * the file's line `i ≥ 1` holds event `base + i - 1`.
 */
export function makeJsonlWriter(
  state: JsonlState,
  id: string,
  path: string,
  lease: FileLease,
  initial: {
    handle: FileHandle;
    size: number;
    lines: number;
    ends: LineEnds;
    current: boolean;
    crc: number;
    verified: boolean;
    base: number;
    manifest?: Manifest | undefined;
  },
): FastWriter {
  const { dir, now, write, held, storedRanges } = state;
  let { handle, size, lines, ends, current, crc, verified, base } = initial;
  let endsWithNewline = true;
  /** The manifest the file is (its segments), once read; a create passes its own. */
  let manifest: Manifest | undefined = initial.manifest;
  let dirty = false;
  let released = false;
  let lost = false;
  /** What a clean release left for a later writer of this log (`resume`). */
  let point: JsonlResumePoint | undefined;
  const owned = (): void => {
    if (released)
      throw new SessionError('SESSION_CLOSED', `The lease on session ${id} was released; reopen it to write.`, { sessionId: id });
    if (lost) throw leaseLost(id, path);
  };
  /** The fencing check: throws `SESSION_BUSY` once a newer lease generation exists. */
  const fenced = async (): Promise<void> => {
    owned();
    if (await lease.stillHeld()) return;
    lost = true;
    throw leaseLost(id, path);
  };
  /**
   * Seals the file's own lines into a segment (`seal-held-lines.ts`) between two batches; the batch
   * before it is already durable, so a failure here only leaves the lines unsealed (a fork copies them).
   */
  const sealOwnLines = async (): Promise<void> => {
    try {
      // Through the open handle, synchronously: the writer's own durable bytes, no thread-pool round trips.
      const bytes = readExactlySync(handle, size);
      if (bytes.length !== size) return;
      const sealed = await sealHeldLines(state, id, path, bytes, fenced);
      if (sealed === undefined) return;
      await handle.close().catch(() => undefined);
      handle = await open(path, 'r+');
      size = sealed.bytes.length;
      ends = new LineEnds();
      ends.scan(sealed.bytes, 0);
      lines = 1;
      base = sealed.manifest.lines;
      manifest = sealed.manifest;
      crc = crc32(sealed.bytes);
    } catch {
      // Unsealed lines stay own lines; a lost lease is refused at the next batch.
    }
  };
  const writer: FastWriter = {
    async read(): Promise<StoredRead> {
      owned();
      const [bytes, stamp] = await Promise.all([readWholeFile(path), readVerifiedStamp(dir, id)]);
      size = bytes.length;
      ends = new LineEnds();
      ends.scan(bytes, 0);
      lines = ends.length;
      // Lines ending in CR are rewritten in LF at the first write, never copied into a fork child.
      current = lines > 0 && startsWithCurrentRecordsHeader(bytes, ends.at(0) - 1) && !bytes.includes(CARRIAGE_RETURN);
      endsWithNewline = size === 0 || bytes[size - 1] === NEWLINE;
      crc = crc32(bytes);
      verified = false;
      // A manifest is read with its segments (one self-contained log); its own lines follow them.
      manifest = manifestOf(bytes);
      base = manifest?.lines ?? 0;
      // Bytes the stamp vouches for were validated by a writer of this store: decoded, not validated again.
      const vouched = stamp !== undefined && stamp.size === size && stamp.crc32 === crc && current && endsWithNewline;
      // A vouched-for manifest is read lazily: its segments are checked by digest and read one at a time
      // when their events are (SPEC §24: resume holds what the model needs, not the whole log).
      if (vouched && manifest !== undefined) return { log: new SegmentedJsonlLog(state.segments, bytes, manifest) };
      const whole = manifest === undefined ? bytes : await materialize(state.segments, bytes, manifest);
      if (vouched) return { log: new VerifiedJsonlLog(whole) };
      return { log: new JsonlTextLog(whole.toString('utf8')) };
    },
    markValidated() {
      verified = true;
    },
    resumePoint() {
      return point;
    },
    async resume(from) {
      owned();
      if (!(from instanceof JsonlResumePoint) || from.path !== path) return false;
      let appended: ResumedLog['appended'];
      if (!(await from.matches(handle))) {
        // Another writer may only have appended: its verified stamp must cover our bytes and its own.
        const since = await from.appendedSince(handle);
        const added = since?.bytes;
        if (since === undefined || added === undefined || added.at(-1) !== NEWLINE || added.includes(CARRIAGE_RETURN)) return false;
        // The stamp's writer left the file as it is now (same change time: no edit since) and its CRC covers our bytes and the new ones.
        const stamp = await readVerifiedStamp(dir, id);
        const after = crc32(added, from.state.crc);
        if (stamp?.ctimeNs !== since.ctimeNs || stamp.size !== from.state.size + added.length || stamp.crc32 !== after) return false;
        const addedEnds = LineEnds.after(0);
        addedEnds.scan(added, 0);
        const first = from.state.base + from.state.lines - 1;
        ({ size, lines, ends, crc, base, manifest } = from.state);
        ends.scan(added, size);
        size += added.length;
        lines += addedEnds.length - 1;
        crc = after;
        appended = { first, source: verifiedLinesSource(id, added, addedEnds, first) };
      } else ({ size, lines, ends, crc, base, manifest } = from.state);
      // The point was taken only of durable, validated, current-format lines ending in LF; the stamp vouches for what was appended.
      current = true;
      endsWithNewline = true;
      verified = true;
      return appended === undefined ? {} : { appended };
    },
    async append(expectedNextSeq, events) {
      await fenced();
      const storedEvents = base + lines - 1;
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
      crc = crc32(bytes, crc);
      if (current && size - ends.at(0) >= SEAL_AT_BYTES) await sealOwnLines();
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
      current = true;
      endsWithNewline = true;
      dirty = false;
      crc = crc32(bytes);
      verified = true;
      base = 0;
      manifest = undefined;
    },
    async discardTornTail(line) {
      await fenced();
      const bytes = await readFile(path);
      // `line` counts the lines of the log read (its segments' lines included); the file holds only its own.
      const offset = lineOffset(bytes, line - base);
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
      crc = crc32(bytes.subarray(0, offset));
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
      const clean = verified && current && endsWithNewline && !dirty && !lost;
      // Still under the lease: what a later writer of this process may take up without reading the log.
      if (clean) point = await JsonlResumePoint.capture(path, handle, { size, lines, ends, crc, base, manifest }).catch(() => undefined);
      await handle.close().catch(() => undefined);
      // Still under the lease: nobody else changed these bytes since they were validated.
      if (clean) await writeVerifiedStamp(dir, id, { size, crc32: crc, ...(point === undefined ? {} : { ctimeNs: point.ctimeNs }) });
      await lease.release();
    },
  };
  // Lines are only handed out for copying while this writer holds the lease and they are durable current-format records.
  const range = (count: number) => {
    // `count` counts the session's events: the first `base` lie in the manifest's segments, the rest in the file.
    const own = count - base;
    if (released || !current || !endsWithNewline || count < 0 || own >= ends.length) return undefined;
    const inFile = Math.max(own, 0);
    return { handle, start: ends.at(0), end: ends.at(inFile), ends, count: inFile, size, writing: dirty, manifest, events: count };
  };
  held.add(writer);
  storedRanges.set(id, range);
  return writer;
}
