/**
 * `readJsonlSummary`: the JSONL backend's `readSummary` — a session's summary parts from its summary
 * file (`jsonl-summary-file.ts`) caught up with the lines appended since, or rebuilt from bytes its
 * verified stamp vouches for; never the rest of the log. See
 * `docs/decisions/2026-12-07-jsonl-summary-files.md`.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { CURRENT_FORMAT_VERSION, type SessionHeader } from 'dsh-codec';
import { deepFreeze } from '../deep-freeze.js';
import type { StoredSummary } from '../fast-backend.js';
import { notFoundError } from '../store-errors.js';
import { errorCode } from './durable-files.js';
import { NEWLINE } from './jsonl-log-bytes.js';
import { logFile } from './jsonl-paths.js';
import { readSummaryFile, writeSummaryFile, type SummaryFile, type SummaryLine } from './jsonl-summary-file.js';
import { manifestOf, materialize } from './jsonl-manifest.js';
import { matchesStamp, readVerifiedStamp } from './jsonl-verified-stamp.js';
import type { SegmentStore } from './segments/segment-store.js';

/** A header line longer than this is not summarized from parts (the store reads that log whole). */
const MAX_HEADER_BYTES = 1 << 20;

async function readAt(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  const bytes = Buffer.allocUnsafe(length);
  let offset = 0;
  while (offset < length) {
    const { bytesRead } = await handle.read(bytes, offset, length - offset, position + offset);
    if (bytesRead === 0) break;
    offset += bytesRead;
  }
  return bytes.subarray(0, offset);
}

/** The log's first line without its `\n`, or undefined when it has no complete first line (within the bound). */
async function readHeaderLine(handle: FileHandle, size: number): Promise<string | undefined> {
  // A header line is well under a page; a longer one is read again with four times as much.
  for (let length = Math.min(size, 4096); ; length = Math.min(size, length * 4)) {
    const bytes = await readAt(handle, 0, length);
    const end = bytes.indexOf(NEWLINE);
    if (end !== -1) return bytes.toString('utf8', 0, end);
    if (length >= size || length >= MAX_HEADER_BYTES) return undefined;
  }
}

/** The envelope of a stored line: `{"seq":N,"type":"…",` where `serializeEvent` puts them. */
const ENVELOPE = /^\{"seq":(\d+),"type":("(?:[^"\\]|\\.)*"),/;

/** Folds one stored event line into `summary`; false when it is not the next event's line. */
function foldLine(summary: SummaryFile, line: string): boolean {
  const envelope = ENVELOPE.exec(line);
  if (envelope === null) return false;
  const seq = Number(envelope[1]);
  if (seq !== (summary.last === undefined ? 0 : summary.last.seq + 1)) return false;
  let event: unknown;
  try {
    event = JSON.parse(line);
  } catch {
    return false;
  }
  const { type, data, time } = event as { type?: unknown; data?: unknown; time?: unknown };
  if (typeof type !== 'string' || typeof time !== 'number' || typeof data !== 'object' || data === null) return false;
  const at: SummaryLine = { seq, line };
  summary.last = at;
  if (type === 'session/title') summary.title = at;
  else if (type === 'session/config' && typeof (data as { cwd?: unknown }).cwd === 'string') summary.cwdConfig = at;
  else if (type === 'turn/start') summary.turnStart = seq;
  else if (type === 'turn/end') summary.turnEnd = seq;
  return true;
}

/**
 * `summary` brought up to the log's `size` bytes: its last line must still end at `summary.size`, and
 * every byte after it must be complete lines holding the next events. Undefined otherwise.
 */
async function catchUp(handle: FileHandle, summary: SummaryFile, size: number): Promise<SummaryFile | undefined> {
  // A manifest whose file holds only its header keeps its last event in a segment: its header ends the summary.
  const headerOnly = summary.size === Buffer.byteLength(summary.header) + 1;
  const tail = Buffer.from(`${headerOnly ? summary.header : (summary.last?.line ?? summary.header)}\n`, 'utf8');
  const from = summary.size - tail.length;
  if (from < 0 || size < summary.size) return undefined;
  const bytes = await readAt(handle, from, size - from);
  if (bytes.length !== size - from || !bytes.subarray(0, tail.length).equals(tail)) return undefined;
  if (bytes.length === tail.length) return summary;
  if (bytes[bytes.length - 1] !== NEWLINE) return undefined;
  const caught: SummaryFile = { ...summary, size };
  const text = bytes.toString('utf8', tail.length, bytes.length - 1);
  for (const line of text.split('\n')) if (!foldLine(caught, line)) return undefined;
  return caught;
}

/**
 * The latest line of an event of `type` in verified `bytes` (events from `start` on), found by its
 * envelope: text inside an event's data (a nested object) is skipped.
 */
function findLastLine(bytes: Buffer, start: number, type: string, accept: (line: string) => boolean = () => true): SummaryLine | undefined {
  const needle = `,"type":${JSON.stringify(type)},`;
  for (let position = bytes.length - 1; position >= start;) {
    const found = bytes.lastIndexOf(needle, position, 'utf8');
    if (found < start) return undefined;
    const lineStart = bytes.lastIndexOf(NEWLINE, found) + 1;
    const lineEnd = bytes.indexOf(NEWLINE, found);
    const line = bytes.toString('utf8', lineStart, lineEnd);
    const envelope = ENVELOPE.exec(line);
    if (envelope !== null && lineStart + envelope[0].length === found + needle.length && accept(line))
      return { seq: Number(envelope[1]), line };
    position = found - 1;
  }
  return undefined;
}

function namesCwd(line: string): boolean {
  const { data } = JSON.parse(line) as { data?: { cwd?: unknown } };
  return typeof data?.cwd === 'string';
}

/** The summary of a whole log's `bytes`, which its verified stamp vouches for (current format, LF, every line validated). */
function summaryOfVerified(bytes: Buffer, headerEnd: number): SummaryFile {
  const header = bytes.toString('utf8', 0, headerEnd);
  const start = headerEnd + 1;
  const summary: SummaryFile = { size: bytes.length, header, turnStart: -1, turnEnd: -1 };
  if (bytes.length <= start) return summary;
  const lastStart = bytes.lastIndexOf(NEWLINE, bytes.length - 2) + 1;
  const line = bytes.toString('utf8', lastStart, bytes.length - 1);
  summary.last = { seq: Number(ENVELOPE.exec(line)?.[1] ?? -1), line };
  const title = findLastLine(bytes, start, 'session/title');
  if (title !== undefined) summary.title = title;
  const cwdConfig = findLastLine(bytes, start, 'session/config', namesCwd);
  if (cwdConfig !== undefined) summary.cwdConfig = cwdConfig;
  summary.turnStart = findLastLine(bytes, start, 'turn/start')?.seq ?? -1;
  summary.turnEnd = findLastLine(bytes, start, 'turn/end')?.seq ?? -1;
  return summary;
}

/**
 * A summary rebuilt from the whole log, when its verified stamp vouches for every byte; else undefined.
 * A manifest is read with its segments (each checked by its digest); its summary still describes its file.
 */
async function rebuild(
  dir: string,
  id: string,
  handle: FileHandle,
  size: number,
  segments: SegmentStore,
): Promise<SummaryFile | undefined> {
  const stamp = await readVerifiedStamp(dir, id);
  if (stamp?.size !== size) return undefined;
  const bytes = await readAt(handle, 0, size);
  if (!matchesStamp(bytes, stamp)) return undefined;
  const manifest = manifestOf(bytes);
  const whole = manifest === undefined ? bytes : await materialize(segments, bytes, manifest);
  const headerEnd = whole.indexOf(NEWLINE);
  if (headerEnd === -1) return undefined;
  const summary = summaryOfVerified(whole, headerEnd);
  if (manifest !== undefined) Object.assign(summary, { size, header: bytes.toString('utf8', 0, manifest.headerEnd - 1) });
  return summary.last === undefined || summary.last.seq >= 0 ? summary : undefined;
}

function partsOf(summary: SummaryFile, header: SessionHeader): StoredSummary {
  const lines = new Map<number, string>();
  for (const at of [summary.last, summary.title, summary.cwdConfig]) if (at !== undefined) lines.set(at.seq, at.line);
  return {
    header,
    count: summary.last === undefined ? 0 : summary.last.seq + 1,
    lines,
    latestTurnStart: summary.turnStart,
    latestTurnEnd: summary.turnEnd,
  };
}

/**
 * The summary parts of session `id` in `dir` without reading the rest of its log (`SESSION_NOT_FOUND`),
 * or undefined when they cannot be trusted so: no summary file and no verified stamp matching the
 * log, an older format, a torn final line, appended lines that are not the next events. The summary
 * file is written again whenever it was missing or behind.
 */
export async function readJsonlSummary(dir: string, id: string, segments: SegmentStore): Promise<StoredSummary | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(logFile(dir, id), 'r');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') throw notFoundError(id);
    throw error;
  }
  try {
    const { size } = await handle.stat();
    const headerLine = await readHeaderLine(handle, size);
    if (headerLine === undefined) return undefined;
    const stored = await readSummaryFile(dir, id);
    let summary = stored?.header === headerLine ? await catchUp(handle, stored, size) : undefined;
    summary ??= await rebuild(dir, id, handle, size, segments);
    if (summary === undefined || summary.header !== headerLine) return undefined;
    let header: unknown;
    try {
      header = JSON.parse(headerLine);
    } catch {
      return undefined;
    }
    // Summaries are kept of current-format logs only (an older one is rewritten at its first write).
    if ((header as { version?: unknown } | null)?.version !== CURRENT_FORMAT_VERSION) return undefined;
    if (summary !== stored) await writeSummaryFile(dir, id, summary);
    // The store's header never names segments: they are how this backend keeps the log.
    const { segments: _segments, ...session } = header as SessionHeader;
    return partsOf(summary, deepFreeze(session as SessionHeader));
  } finally {
    await handle.close();
  }
}
