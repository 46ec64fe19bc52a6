/**
 * `readJsonlSummary`: the JSONL backend's `readSummary` — a session's summary parts from its summary
 * file (`jsonl-summary-file.ts`) caught up with the lines appended since, or rebuilt from bytes its
 * verified stamp vouches for; never the rest of the log. See
 * `docs/decisions/2026-12-07-jsonl-summary-files.md`.
 */
import { closeSync, fstatSync, openSync, read, readSync } from 'node:fs';
import { promisify } from 'node:util';
import { CURRENT_FORMAT_VERSION, type SessionHeader } from 'dsh-codec';
import { deepFreeze } from '../deep-freeze.js';
import type { StoredSummary } from '../fast-backend.js';
import { notFoundError } from '../store-errors.js';
import { errorCode } from './durable-files.js';
import { NEWLINE } from './jsonl-log-bytes.js';
import { logFile } from './jsonl-paths.js';
import { readSummaryFileSync, writeSummaryFile, type SummaryFile, type SummaryLine } from './jsonl-summary-file.js';
import { manifestOf } from './jsonl-manifest.js';
import { summaryOfManifest } from './summary-of-manifest.js';
import { ENVELOPE, summaryOfVerified } from './verified-summary-lines.js';
import { matchesStamp, readVerifiedStamp } from './jsonl-verified-stamp.js';
import type { SegmentStore } from './segments/segment-store.js';

/** A header line longer than this is not summarized from parts (the store reads that log whole). */
const MAX_HEADER_BYTES = 1 << 20;

/**
 * Reads at most this many bytes synchronously: a listing reads a header and a last line per session, and
 * for those a thread-pool round trip costs more than the read itself (1,000 sessions: ~300 ms of CPU
 * against ~40 ms, docs/decisions/2026-12-07-jsonl-summary-files.md). A longer read (a rebuild) stays off the event loop.
 */
const SYNC_READ_BYTES = 1 << 16;

const readAsync = promisify(read);

async function readAt(fd: number, position: number, length: number): Promise<Buffer> {
  const bytes = Buffer.allocUnsafe(length);
  let offset = 0;
  while (offset < length) {
    const bytesRead =
      length <= SYNC_READ_BYTES
        ? readSync(fd, bytes, offset, length - offset, position + offset)
        : (await readAsync(fd, bytes, offset, length - offset, position + offset)).bytesRead;
    if (bytesRead === 0) break;
    offset += bytesRead;
  }
  return bytes.subarray(0, offset);
}

/** The log's first line without its `\n`, or undefined when it has no complete first line (within the bound). */
async function readHeaderLine(fd: number, size: number): Promise<string | undefined> {
  // A header line is well under a page; a longer one is read again with four times as much.
  for (let length = Math.min(size, 4096); ; length = Math.min(size, length * 4)) {
    const bytes = await readAt(fd, 0, length);
    const end = bytes.indexOf(NEWLINE);
    if (end !== -1) return bytes.toString('utf8', 0, end);
    if (length >= size || length >= MAX_HEADER_BYTES) return undefined;
  }
}

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
async function catchUp(fd: number, summary: SummaryFile, size: number): Promise<SummaryFile | undefined> {
  // A manifest whose file holds only its header keeps its last event in a segment: its header ends the summary.
  const headerOnly = summary.size === Buffer.byteLength(summary.header) + 1;
  const tail = Buffer.from(`${headerOnly ? summary.header : (summary.last?.line ?? summary.header)}\n`, 'utf8');
  const from = summary.size - tail.length;
  if (from < 0 || size < summary.size) return undefined;
  const bytes = await readAt(fd, from, size - from);
  if (bytes.length !== size - from || !bytes.subarray(0, tail.length).equals(tail)) return undefined;
  if (bytes.length === tail.length) return summary;
  if (bytes[bytes.length - 1] !== NEWLINE) return undefined;
  const caught: SummaryFile = { ...summary, size };
  const text = bytes.toString('utf8', tail.length, bytes.length - 1);
  for (const line of text.split('\n')) if (!foldLine(caught, line)) return undefined;
  return caught;
}

/** The summary of a self-contained verified log; undefined when it has no header line. */
function summaryOfVerifiedLog(bytes: Buffer): SummaryFile | undefined {
  const headerEnd = bytes.indexOf(NEWLINE);
  return headerEnd === -1 ? undefined : summaryOfVerified(bytes, headerEnd);
}

/**
 * A summary rebuilt from the whole log, when its verified stamp vouches for every byte; else undefined.
 * A manifest's segments are searched by their indexes (`summary-of-manifest.ts`); its summary describes its file.
 */
async function rebuild(dir: string, id: string, fd: number, size: number, segments: SegmentStore): Promise<SummaryFile | undefined> {
  const stamp = await readVerifiedStamp(dir, id);
  if (stamp?.size !== size) return undefined;
  const bytes = await readAt(fd, 0, size);
  if (!matchesStamp(bytes, stamp)) return undefined;
  const manifest = manifestOf(bytes);
  // A manifest's segments are read by their indexes: the history itself only where they cannot tell.
  const summary = manifest === undefined ? summaryOfVerifiedLog(bytes) : await summaryOfManifest(segments, bytes, manifest);
  if (summary === undefined) return undefined;
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
  // Opened, checked and closed synchronously, as the leases are (see `SYNC_READ_BYTES`).
  let fd: number;
  try {
    fd = openSync(logFile(dir, id), 'r');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') throw notFoundError(id);
    throw error;
  }
  try {
    const { size } = fstatSync(fd);
    const headerLine = await readHeaderLine(fd, size);
    if (headerLine === undefined) return undefined;
    const stored = readSummaryFileSync(dir, id);
    let summary = stored?.header === headerLine ? await catchUp(fd, stored, size) : undefined;
    summary ??= await rebuild(dir, id, fd, size, segments);
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
    closeSync(fd);
  }
}
