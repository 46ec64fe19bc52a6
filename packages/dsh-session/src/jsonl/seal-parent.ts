/**
 * @module `sealOwnLines`: a fork's parent's own lines sealed as one segment and its manifest rewritten to
 * name it, under the parent's lease (taken here: a parent held by any writer is not sealed, and its
 * child copies instead). The parent's events do not change: its new manifest stands for the same log.
 * docs/decisions/2026-12-07-jsonl-forks-by-reference.md ("a segment per sealed prefix").
 */
import { rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { CURRENT_FORMAT_VERSION, encodeHeader, type SessionHeader } from 'dsh-codec';
import { readWholeFile, syncDirectory, writeFileDurably } from './durable-files.js';
import { acquireFileLease, type FileLease } from './file-lease.js';
import { manifestOf, type Manifest } from './jsonl-manifest.js';
import { NEWLINE } from './jsonl-log-bytes.js';
import { leasesDir, logFile } from './jsonl-paths.js';
import type { JsonlState } from './jsonl-state.js';
import { readSummaryFile, removeSummaryFile, writeSummaryFile } from './jsonl-summary-file.js';
import { matchesStamp, readVerifiedStamp, writeVerifiedStamp } from './jsonl-verified-stamp.js';
import { publishSegment } from './segments/publish-segment.js';
import type { SegmentsLease } from './segments/segments-lease.js';
import { sessionTempName } from './session-temp-name.js';

/**
 * Seals `sealed` — the first of session `id`'s own lines (after its header and segments), validated
 * lines up to a fork's cut — as a segment and rewrites its file as a manifest naming it, followed by its
 * other own lines, when its file still holds exactly `bytes` (what the fork read) and its lease is free.
 * Returns the new manifest, or undefined when nothing was sealed (held, changed): the caller then
 * copies. Storage failures leave the parent's file as it was and are thrown.
 */
export async function sealOwnLines(
  state: JsonlState,
  id: string,
  bytes: Buffer,
  sealed: Buffer,
  segmentsLease: SegmentsLease,
): Promise<Manifest | undefined> {
  const { dir } = state;
  const headerEnd = bytes.indexOf(NEWLINE) + 1;
  // Only complete lines the fork read from this very file (never a torn or unvalidated tail) are sealed.
  if (headerEnd === 0 || sealed.length === 0 || sealed[sealed.length - 1] !== NEWLINE) return undefined;
  if (!bytes.subarray(headerEnd, headerEnd + sealed.length).equals(sealed)) return undefined;
  // Only a current-format header is sealed (an older one is rewritten at its session's first write, not here).
  let header: SessionHeader;
  try {
    header = JSON.parse(bytes.toString('utf8', 0, headerEnd - 1)) as SessionHeader;
  } catch {
    return undefined;
  }
  if ((header as { version: unknown }).version !== CURRENT_FORMAT_VERSION) return undefined;
  let lease: FileLease;
  try {
    lease = await acquireFileLease(leasesDir(dir), id, state.now);
  } catch {
    // Held by a writer (here or elsewhere) or unreadable: not sealed, the child copies.
    return undefined;
  }
  const path = logFile(dir, id);
  const temp = join(dir, sessionTempName(id));
  try {
    // Taken over from a dead holder: its file may hold bytes the fork never read. Only what was read is sealed.
    if (lease.tookOver || !(await readWholeFile(path)).equals(bytes)) return undefined;
    const stamped = matchesStamp(bytes, await readVerifiedStamp(dir, id));
    const before = manifestOf(bytes);
    const segment = await publishSegment(state.segments, segmentsLease, sealed);
    const line = Buffer.from(encodeHeader({ ...header, segments: [...(before?.segments ?? []), segment] }), 'utf8');
    const after = Buffer.concat([line, bytes.subarray(headerEnd + sealed.length)]);
    await writeFileDurably(temp, after, state.write);
    if (!(await lease.stillHeld())) return undefined;
    await rename(temp, path);
    await syncDirectory(dir);
    // The summary and the stamp described the old bytes: both follow the new file when they held.
    const summary = await readSummaryFile(dir, id);
    const old = bytes.toString('utf8', 0, headerEnd - 1);
    if (summary !== undefined && summary.header === old && summary.size === bytes.length) {
      await writeSummaryFile(dir, id, { ...summary, header: line.toString('utf8', 0, line.length - 1), size: after.length });
    } else await removeSummaryFile(dir, id);
    if (stamped) await writeVerifiedStamp(dir, id, { size: after.length, crc32: crc32(after) });
    return manifestOf(after);
  } finally {
    await unlink(temp).catch(() => undefined);
    await lease.release();
  }
}
