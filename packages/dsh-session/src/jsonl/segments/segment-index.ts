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
import { mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileCallKey, fileCallOf, type FileCall } from '../../sources/file-call.js';
import type { SessionEvent } from 'dsh-codec';
import { LineEnds } from '../line-ends.js';
import { SEGMENT_DIGEST, SEGMENT_INDEXES, segmentIndexFile, segmentTempName } from './segment-paths.js';
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
};

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
  return { digest, lines, types, calls: () => list };
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
  });
  const calls = JSON.stringify(
    (index.calls() ?? []).map(({ call, first, last }) => [call.name, call.effect ?? null, call.paths ?? null, first, last]),
  );
  const body = `${head}\n${calls}`;
  return `${body}\n${createHash('sha256').update(body).digest('hex')}\n`;
}

/** `text` as the index of segment `digest`; undefined when it is torn, damaged, another segment's or not an index. */
function parseIndex(text: string, digest: string): SegmentIndex | undefined {
  const headEnd = text.indexOf('\n');
  const callsEnd = text.indexOf('\n', headEnd + 1);
  if (headEnd === -1 || callsEnd === -1) return undefined;
  if (text.slice(callsEnd + 1) !== `${createHash('sha256').update(text.slice(0, callsEnd)).digest('hex')}\n`) return undefined;
  let head: unknown;
  try {
    head = JSON.parse(text.slice(0, headEnd));
  } catch {
    return undefined;
  }
  if (typeof head !== 'object' || head === null) return undefined;
  const { digest: named, lines, types } = head as Record<string, unknown>;
  if (named !== digest || !SEGMENT_DIGEST.test(digest) || !isCount(lines)) return undefined;
  if (typeof types !== 'object' || types === null || Array.isArray(types)) return undefined;
  const typeMap = new Map<string, Lines>();
  for (const [type, range] of Object.entries(types as Record<string, unknown>)) {
    const parsed = linesOf(range, lines);
    if (parsed === undefined) return undefined;
    typeMap.set(type, parsed);
  }
  // Parsed on each ask and not kept: a fork asks once per segment, and the parsed list is the bulk of its memory.
  return { digest, lines, types: typeMap, calls: () => parseCalls(text.slice(headEnd + 1, callsEnd), lines) };
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
