/**
 * `claudeCodeChildBytes`: the bytes of a native fork's child of a Claude Code file — the kept lines
 * as written, their `"sessionId":"<from>"` pairs replaced exactly as `replaceIdFields` does on
 * text, then the closers — into one buffer sized by the file (its pages past the child never
 * touched), each run of adjacent kept lines copied in one piece. The pairs are looked for only
 * where the scanner saw a `"sessionId"` key. A replacement of the same length in every line (a UUID
 * for a UUID: a fork's usual case) is found and written over a run just after the run is copied,
 * while its bytes are in the cache (a file of megabytes is not, and each key is in another line);
 * any other is found in a first pass and splits the runs.
 * @module
 */
import { Buffer } from 'node:buffer';
import { LINE_END, LINE_INDEX, LINE_START, ROW, type ClaudeCodeLineTable } from './claude-code-line-table.js';

const NEWLINE = 10;

/** `pattern` (at most a few dozen bytes) compared four bytes at a time: once per `"sessionId"` key of the kept lines. */
class Pattern {
  private readonly words: Int32Array;

  constructor(readonly bytes: Uint8Array) {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.words = new Int32Array(bytes.length >> 2);
    for (let w = 0; w < this.words.length; w++) this.words[w] = view.getInt32(w * 4, true);
  }

  /** Whether the pattern stands in the file `view` (`bytes` its bytes) at `at`. */
  standsAt(bytes: Uint8Array, view: DataView, at: number): boolean {
    const pattern = this.bytes;
    if (at + pattern.length > bytes.length) return false;
    const words = this.words;
    // From the end: the session id's last characters tell ids apart soonest.
    for (let i = pattern.length - 1; i >= words.length * 4; i--) if (bytes[at + i] !== pattern[i]) return false;
    for (let w = words.length - 1; w >= 0; w--) if (view.getInt32(at + w * 4, true) !== words[w]) return false;
    return true;
  }
}

/**
 * Where `pattern` stands in the kept rows `kept` (all, or with `rewriteAll` false only the file's
 * first line), file order, as `replaceAll` finds it (no two overlapping): only at the places in
 * `sessionIdKeys` (file order), where the text can stand.
 */
function pairsIn(
  bytes: Uint8Array,
  table: ClaudeCodeLineTable,
  kept: readonly number[],
  sessionIdKeys: ArrayLike<number>,
  rewriteAll: boolean,
  pattern: Pattern,
): Int32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const length = pattern.bytes.length;
  const rows = table.rows;
  const found = new Int32Array(sessionIdKeys.length);
  const keys = sessionIdKeys.length;
  let count = 0;
  let candidate = 0;
  for (let k = 0; k < kept.length && candidate < keys; k++) {
    const base = (kept[k] as number) * ROW;
    if (!rewriteAll && rows[base + LINE_INDEX] !== 0) continue;
    const start = rows[base + LINE_START] as number;
    const end = rows[base + LINE_END] as number;
    while (candidate < keys && (sessionIdKeys[candidate] as number) < start) candidate++;
    for (let free = start; candidate < keys && (sessionIdKeys[candidate] as number) < end; candidate++) {
      const at = sessionIdKeys[candidate] as number;
      if (at < free || !pattern.standsAt(bytes, view, at)) continue;
      found[count++] = at;
      free = at + length;
    }
  }
  return found.subarray(0, count);
}

/** The child when the pairs' places are found first (`pairsIn`): runs split at each, the replacement written between. */
function movedChild(
  bytes: Uint8Array,
  table: ClaudeCodeLineTable,
  kept: readonly number[],
  pairs: Int32Array,
  pattern: Uint8Array,
  replacement: Uint8Array,
  tail: Uint8Array,
): Buffer {
  const out = Buffer.allocUnsafe(bytes.length + 1 + tail.length + pairs.length * Math.max(0, replacement.length - pattern.length));
  const rows = table.rows;
  let offset = 0;
  // The source bytes from `runStart` not yet copied, to land at `offset`.
  let runStart = 0;
  let runEnd = 0;
  const flush = (to: number): void => {
    if (to > runStart) out.set(new Uint8Array(bytes.buffer, bytes.byteOffset + runStart, to - runStart), offset);
    offset += Math.max(0, to - runStart);
    runStart = to;
  };
  let pair = 0;
  for (let k = 0; k < kept.length; k++) {
    const base = (kept[k] as number) * ROW;
    const start = rows[base + LINE_START] as number;
    const end = rows[base + LINE_END] as number;
    if (start !== runEnd) {
      flush(runEnd);
      runStart = start;
    }
    for (; pair < pairs.length && (pairs[pair] as number) < end; pair++) {
      flush(pairs[pair] as number);
      out.set(replacement, offset);
      offset += replacement.length;
      runStart += pattern.length;
    }
    // The line's own newline is copied with it when the file has one there.
    runEnd = end + 1;
    if (end === bytes.length) {
      flush(end);
      out[offset++] = NEWLINE;
    }
  }
  flush(Math.min(runEnd, bytes.length));
  out.set(tail, offset);
  return out.subarray(0, offset + tail.length);
}

/** The child when every kept line is rewritten with a replacement as long as the pattern: one pass, each run patched once copied. */
function patchedChild(
  bytes: Uint8Array,
  table: ClaudeCodeLineTable,
  kept: readonly number[],
  sessionIdKeys: ArrayLike<number>,
  pattern: Pattern,
  replacement: Uint8Array,
  tail: Uint8Array,
): Buffer {
  const out = Buffer.allocUnsafe(bytes.length + 1 + tail.length);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const length = pattern.bytes.length;
  // Only the bytes where the two pairs differ are written.
  let first = 0;
  while (first < length && pattern.bytes[first] === replacement[first]) first++;
  let last = length;
  while (last > first && pattern.bytes[last - 1] === replacement[last - 1]) last--;
  const differing = replacement.subarray(first, last);
  const rows = table.rows;
  const keys = sessionIdKeys.length;
  let candidate = 0;
  let offset = 0;
  // The source bytes [runStart, runEnd) (whole lines, their newlines) not yet copied, to land at `offset`.
  let runStart = 0;
  let runEnd = 0;
  const flush = (): void => {
    if (runEnd <= runStart) return;
    out.set(new Uint8Array(bytes.buffer, bytes.byteOffset + runStart, runEnd - runStart), offset);
    while (candidate < keys && (sessionIdKeys[candidate] as number) < runStart) candidate++;
    // A pair cannot hold a newline: each lies inside one line of the run.
    for (let free = runStart; candidate < keys && (sessionIdKeys[candidate] as number) < runEnd; candidate++) {
      const at = sessionIdKeys[candidate] as number;
      if (at < free || !pattern.standsAt(bytes, view, at)) continue;
      if (differing.length > 0) out.set(differing, offset + at - runStart + first);
      free = at + length;
    }
    offset += runEnd - runStart;
    runStart = runEnd;
  };
  for (let k = 0; k < kept.length; k++) {
    const base = (kept[k] as number) * ROW;
    const start = rows[base + LINE_START] as number;
    const end = rows[base + LINE_END] as number;
    if (start !== runEnd) {
      flush();
      runStart = start;
    }
    // The line's own newline is copied with it when the file has one there.
    runEnd = end < bytes.length ? end + 1 : end;
    if (end === bytes.length) {
      flush();
      out[offset++] = NEWLINE;
    }
  }
  flush();
  out.set(tail, offset);
  return out.subarray(0, offset + tail.length);
}

/**
 * The child's bytes: each of the rows `kept` (file order) as written, every `"sessionId":"<from>"`
 * in it (in every row when `rewriteAll`, else only in the file's first line) replaced by
 * `"sessionId":"<to>"`, each line ending in `\n` (added to a last line without one); then `tail`.
 */
export function claudeCodeChildBytes(
  bytes: Uint8Array,
  table: ClaudeCodeLineTable,
  kept: readonly number[],
  sessionIdKeys: ArrayLike<number>,
  rewriteAll: boolean,
  from: string,
  to: string,
  tail: Uint8Array,
): Buffer {
  const pattern = new Pattern(Buffer.from(`"sessionId":${JSON.stringify(from)}`, 'utf8'));
  const replacement = Buffer.from(`"sessionId":${JSON.stringify(to)}`, 'utf8');
  if (rewriteAll && replacement.length === pattern.bytes.length)
    return patchedChild(bytes, table, kept, sessionIdKeys, pattern, replacement, tail);
  const pairs = pairsIn(bytes, table, kept, sessionIdKeys, rewriteAll, pattern);
  return movedChild(bytes, table, kept, pairs, pattern.bytes, replacement, tail);
}
