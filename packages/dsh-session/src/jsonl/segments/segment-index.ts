/**
 * @module `SegmentIndex`: what a sealed segment holds, by line — the first and last line of each event
 * type, and of each distinct `FileCall` — so a search by type or for the files a history's calls name
 * skips every segment that holds no match without reading it (SPEC §24: a fork costs what its cut costs).
 * It is a cache beside the segment, `<dir>/.segment-index/<digest>`, keyed by the segment's digest:
 * written when the segment is published and rebuilt from the segment's bytes when missing or unreadable.
 * Its file carries its own SHA-256, so a torn or damaged index is rebuilt, never used; its list of calls
 * (the bulk) is parsed only when a search asks for files.
 * (docs/decisions/2026-12-07-jsonl-forks-by-reference.md, "Segment indexes")
 */
import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, readSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileCallKey, fileCallOf, type FileCall } from '../../sources/file-call.js';
import type { SessionEvent } from 'dsh-codec';
import { LineEnds } from '../line-ends.js';
import { SEGMENT_DIGEST, SEGMENT_INDEXES, segmentFile, segmentIndexFile, segmentTempName } from './segment-paths.js';
import type { SegmentStore } from './segment-store.js';

/** The first and last line (0-based, within the segment) where something occurs. */
type Lines = { first: number; last: number };

/** A distinct `FileCall` of a segment's tool calls, with the lines of its first and last call. */
type IndexedCall = Lines & { call: FileCall };

/** What the first `lines` lines of segment `digest` hold. */
export type SegmentIndex = {
  readonly digest: string;
  readonly lines: number;
  /** Per event type, the lines of its first and last event. */
  readonly types: ReadonlyMap<string, Lines>;
  /** Per distinct `FileCall` of the tool calls, its lines (parsed from the file on each ask, not kept); undefined when the file's list is damaged. */
  calls(): readonly IndexedCall[] | undefined;
  /** Per line, where the last event of each `KEPT_LINE_TYPES` type lies in the segment and the SHA-256 of its bytes: that one line can be read alone. */
  readonly kept: ReadonlyMap<number, KeptLine>;
};

/** A line of a segment readable alone: its bytes `start..end-1` (without the line feed), and their SHA-256. */
export type KeptLine = { readonly start: number; readonly end: number; readonly sha256: string };

/**
 * The types whose last line in a segment its index can locate and vouch for: what a fork searches back
 * from its cut and decodes (the config naming a cwd, the title, the checkpoint), so the segment holding
 * one need not be read and hashed whole for one line.
 */
export const KEPT_LINE_TYPES: ReadonlySet<string> = new Set(['session/config', 'session/title', 'workspace/checkpoint']);

/** The SHA-256 of `bytes` in lowercase hex. */
export function sha256Of(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The envelope a dsh writer puts first on every line: seq, then type (any other line is parsed whole). */
const ENVELOPE = /^\{"seq":\d+,"type":"([^"\\]*)"/;
/** Bytes enough for the envelope of any line. */
const ENVELOPE_BYTES = 160;

/**
 * The index of `bytes`, the first lines of segment `digest` (`ends`: the offset after each; line 0 ends
 * at 0); undefined when a line is not an event (then there is no index, and a search reads the segment).
 */
export function indexSegmentLines(digest: string, bytes: Buffer, ends?: LineEnds): SegmentIndex | undefined {
  if (ends === undefined) {
    ends = LineEnds.after(0);
    ends.scan(bytes, 0);
  }
  const lines = ends.length - 1;
  const types = new Map<string, Lines>();
  const calls = new Map<string, IndexedCall>();
  for (let line = 0; line < lines; line++) {
    const start = ends.at(line);
    const end = ends.at(line + 1) - 1;
    let event: SessionEvent | undefined;
    let type = ENVELOPE.exec(bytes.toString('latin1', start, Math.min(end, start + ENVELOPE_BYTES)))?.[1];
    if (type === undefined || type === 'tool/call') {
      event = parseEvent(bytes.toString('utf8', start, end));
      if (event === undefined) return undefined;
      type = event.type;
    }
    note(types, type, line);
    const call = event === undefined ? undefined : fileCallOf(event);
    if (call !== undefined) {
      const key = fileCallKey(call);
      const seen = calls.get(key);
      if (seen === undefined) calls.set(key, { call, first: line, last: line });
      else seen.last = line;
    }
  }
  const list = [...calls.values()];
  const kept = new Map<number, KeptLine>();
  for (const [type, { last }] of types) {
    if (!KEPT_LINE_TYPES.has(type)) continue;
    const start = ends.at(last);
    const end = ends.at(last + 1) - 1;
    kept.set(last, { start, end, sha256: sha256Of(bytes.subarray(start, end)) });
  }
  return { digest, lines, types, calls: () => list, kept };
}

/** `text` parsed as an event's envelope; undefined when it is not one. */
function parseEvent(text: string): SessionEvent | undefined {
  let event: unknown;
  try {
    event = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof event !== 'object' || event === null || typeof (event as { type?: unknown }).type !== 'string') return undefined;
  return event as SessionEvent;
}

function note(map: Map<string, Lines>, key: string, line: number): void {
  const seen = map.get(key);
  if (seen === undefined) map.set(key, { first: line, last: line });
  else seen.last = line;
}

/**
 * The latest line before `end` holding an event of one of `types`, by the index alone: -1 when there is
 * none, undefined when the index cannot tell (a type occurs both before and at or after `end`: only
 * the segment's lines say where).
 */
export function latestLineOf(index: SegmentIndex, types: readonly string[], end: number): number | undefined {
  let latest = -1;
  for (const type of types) {
    const lines = index.types.get(type);
    if (lines === undefined || lines.first >= end) continue;
    if (lines.last >= end) return undefined;
    latest = Math.max(latest, lines.last);
  }
  return latest;
}

/**
 * The distinct file calls of lines `from..to-1` by the index alone, when it can tell: a range that starts
 * at the segment's first line (a call occurs in it when its first does) or ends at the index's last (when
 * its last does); undefined for a range inside.
 */
export function fileCallsIn(index: SegmentIndex, from: number, to: number): FileCall[] | undefined {
  if (from >= to) return [];
  const calls = from > 0 && to < index.lines ? undefined : index.calls();
  if (calls === undefined) return undefined;
  const found: FileCall[] = [];
  for (const { call, first, last } of calls) {
    if (from <= 0 ? first < to : last >= from) found.push(call);
  }
  return found;
}

/**
 * The text of a kept line of segment `digest`, read alone (within its first `bytes` bytes), when its
 * bytes are the ones the index vouches for; undefined otherwise (then the segment is read whole and
 * verified by its digest, which says what is wrong).
 */
export function readKeptLineSync(store: SegmentStore, digest: string, bytes: number, kept: KeptLine): string | undefined {
  if (kept.end >= bytes) return undefined;
  let fd: number;
  try {
    fd = openSync(segmentFile(store.dir, digest), 'r');
  } catch {
    return undefined;
  }
  try {
    const line = Buffer.allocUnsafe(kept.end - kept.start);
    for (let offset = 0; offset < line.length;) {
      const read = readSync(fd, line, offset, line.length - offset, kept.start + offset);
      if (read === 0) return undefined;
      offset += read;
    }
    return sha256Of(line) === kept.sha256 ? line.toString('utf8') : undefined;
  } finally {
    closeSync(fd);
  }
}

/** Segment `digest`'s index when its file holds one for at least its first `lines` lines, intact; else undefined (rebuild it). */
export function readSegmentIndexSync(store: SegmentStore, digest: string, lines: number): SegmentIndex | undefined {
  let text: string;
  try {
    text = readFileSync(segmentIndexFile(store.dir, digest), 'utf8');
  } catch {
    return undefined;
  }
  const index = parseIndex(text, digest);
  return index !== undefined && index.lines >= lines ? index : undefined;
}

/**
 * Writes `index` as segment `index.digest`'s (temp file, then rename), unless its file already describes
 * as many lines. Best effort: an index is a cache, so a failure to write it (a read-only folder, a full
 * disk) leaves the segment to be read.
 */
export function writeSegmentIndexSync(store: SegmentStore, index: SegmentIndex | undefined): void {
  if (index === undefined || readSegmentIndexSync(store, index.digest, index.lines) !== undefined) return;
  const folder = join(store.dir, SEGMENT_INDEXES);
  const temp = join(folder, segmentTempName(index.digest));
  try {
    mkdirSync(folder, { recursive: true });
    writeFileSync(temp, serializeIndex(index));
    renameSync(temp, segmentIndexFile(store.dir, index.digest));
  } catch {
    try {
      unlinkSync(temp);
    } catch {
      // Never written, or already gone.
    }
  }
}

/** The file of `index`: a line of its lines and types, a line of its calls (parsed only when asked), then the SHA-256 of both lines. */
function serializeIndex(index: SegmentIndex): string {
  const head = JSON.stringify({
    digest: index.digest,
    lines: index.lines,
    types: Object.fromEntries([...index.types].map(([type, { first, last }]) => [type, [first, last]])),
    kept: [...index.kept].map(([line, { start, end, sha256 }]) => [line, start, end, sha256]),
  });
  const calls = JSON.stringify(
    (index.calls() ?? []).map(({ call, first, last }) => [call.name, call.effect ?? null, call.paths ?? null, first, last]),
  );
  const body = `${head}\n${calls}`;
  return `${body}\n${sha256Of(body)}\n`;
}

/** `text` as the index of segment `digest`; undefined when it is torn, damaged, another segment's or not an index. */
function parseIndex(text: string, digest: string): SegmentIndex | undefined {
  const headEnd = text.indexOf('\n');
  const callsEnd = text.indexOf('\n', headEnd + 1);
  if (headEnd === -1 || callsEnd === -1) return undefined;
  if (text.slice(callsEnd + 1) !== `${sha256Of(text.slice(0, callsEnd))}\n`) return undefined;
  let head: unknown;
  try {
    head = JSON.parse(text.slice(0, headEnd));
  } catch {
    return undefined;
  }
  if (typeof head !== 'object' || head === null) return undefined;
  const { digest: named, lines, types, kept } = head as Record<string, unknown>;
  if (named !== digest || !SEGMENT_DIGEST.test(digest) || !isCount(lines)) return undefined;
  if (typeof types !== 'object' || types === null || Array.isArray(types)) return undefined;
  const typeMap = new Map<string, Lines>();
  for (const [type, range] of Object.entries(types as Record<string, unknown>)) {
    const parsed = linesOf(range, lines);
    if (parsed === undefined) return undefined;
    typeMap.set(type, parsed);
  }
  const keptMap = parseKept(kept, lines);
  if (keptMap === undefined) return undefined;
  // Parsed on each ask and not kept: a fork asks once per segment, and the parsed list is the bulk of its memory.
  return { digest, lines, types: typeMap, calls: () => parseCalls(text.slice(headEnd + 1, callsEnd), lines), kept: keptMap };
}

/** An index's kept lines; undefined when any entry is not one. */
function parseKept(kept: unknown, lines: number): Map<number, KeptLine> | undefined {
  if (!Array.isArray(kept)) return undefined;
  const map = new Map<number, KeptLine>();
  for (const entry of kept as unknown[]) {
    if (!Array.isArray(entry) || entry.length !== 4) return undefined;
    const [line, start, end, sha256] = entry as unknown[];
    if (!isCount(line) || line >= lines || !isCount(start) || !isCount(end) || start >= end) return undefined;
    if (typeof sha256 !== 'string' || !SEGMENT_DIGEST.test(sha256)) return undefined;
    map.set(line, { start, end, sha256 });
  }
  return map;
}

/** An index's list of calls; undefined when any entry is not one. */
function parseCalls(text: string, lines: number): IndexedCall[] | undefined {
  let entries: unknown;
  try {
    entries = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!Array.isArray(entries)) return undefined;
  const calls: IndexedCall[] = [];
  for (const entry of entries as unknown[]) {
    if (!Array.isArray(entry) || entry.length !== 5) return undefined;
    const [name, effect, paths, first, last] = entry as unknown[];
    const range = linesOf([first, last], lines);
    if (typeof name !== 'string' || (effect !== null && typeof effect !== 'string') || range === undefined) return undefined;
    if (paths !== null && !(Array.isArray(paths) && paths.every((path) => typeof path === 'string'))) return undefined;
    const call: FileCall = { name, ...(effect === null ? {} : { effect }), ...(paths === null ? {} : { paths }) };
    calls.push({ call, ...range });
  }
  return calls;
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function linesOf(range: unknown, lines: number): Lines | undefined {
  if (!Array.isArray(range) || range.length !== 2) return undefined;
  const [first, last] = range as unknown[];
  if (!isCount(first) || !isCount(last) || first > last || last >= lines) return undefined;
  return { first, last };
}
