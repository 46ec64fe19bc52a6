/**
 * `claudeCodeChildChunks`: the bytes of a native fork's child of a Claude Code file, as chunks to
 * write in order — the kept lines as written, their `"sessionId":"<from>"` pairs replaced exactly as
 * `replaceIdFields` does on text, then the closers. Given bytes it may write over (`writable`: the
 * file's own bytes in the scanner's memory) and a replacement of the same length (a UUID for a UUID:
 * a fork's usual case), the pairs are patched where they stand (by the scanner, over the keys it
 * listed) and each run of adjacent kept lines is handed out as a view: no byte of the file is copied
 * in memory (the write gathers the views). Any other case
 * copies the runs into one buffer, splitting a run at each pair that changes length. The pairs are
 * looked for only where the scanner saw a `"sessionId"` key, run by run.
 * @module
 */
import { Buffer } from 'node:buffer';
import type { WritableBytes } from './claude-code-file-table.js';
import { LINE_END, LINE_INDEX, LINE_START, ROW, type ClaudeCodeLineTable } from './claude-code-line-table.js';

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
 * The child's chunks: each of the rows `kept` (file order) as written, every `"sessionId":"<from>"`
 * in it (in every row when `rewriteAll`, else only in the file's first line) replaced by
 * `"sessionId":"<to>"`, each line ending in `\n` (added to a last line without one); then `tail`.
 * Only the places in `sessionIdKeys` (file order) are compared with the pair: the text can stand
 * nowhere else.
 */
export function claudeCodeChildChunks(
  bytes: Uint8Array,
  table: ClaudeCodeLineTable,
  kept: readonly number[],
  sessionIdKeys: ArrayLike<number>,
  rewriteAll: boolean,
  from: string,
  to: string,
  tail: Uint8Array,
  writable?: WritableBytes,
): Uint8Array[] {
  const pattern = new Pattern(Buffer.from(`"sessionId":${JSON.stringify(from)}`, 'utf8'));
  const replacement = Buffer.from(`"sessionId":${JSON.stringify(to)}`, 'utf8');
  const runs = keptRuns(table, kept, bytes.length);
  const rows = table.rows;
  // Pairs are replaced before `limit`: everywhere, or only in the file's first line (when it is kept).
  let limit = bytes.length;
  if (!rewriteAll) {
    const base = kept.length > 0 ? (kept[0] as number) * ROW : -1;
    limit = base >= 0 && rows[base + LINE_INDEX] === 0 ? (rows[base + LINE_END] as number) : 0;
  }
  let chunks: Uint8Array[];
  if (writable !== undefined && replacement.length === pattern.bytes.length) {
    // Every pair patched where it stands (in lines not kept too: their bytes are not written), each run a view.
    writable.patch(pattern.bytes, replacement, limit);
    chunks = runs.starts.map((start, r) => writable.bytes.subarray(start, runs.ends[r]));
  } else chunks = [copiedRuns(bytes, runs, { pattern, sessionIdKeys, limit }, replacement)];
  if (runs.lastLineOpen) chunks.push(Buffer.from('\n', 'utf8'));
  if (tail.length > 0) chunks.push(tail);
  return chunks;
}

/** Where the pairs may stand: the scanner's `"sessionId"` keys (file order), before `limit`. */
type Places = { pattern: Pattern; sessionIdKeys: ArrayLike<number>; limit: number };

/** The kept rows as runs of adjacent whole lines `[starts[r], ends[r])` (each with its newline); `lastLineOpen`: the last ends the file without one. */
type Runs = { starts: number[]; ends: number[]; lastLineOpen: boolean };

function keptRuns(table: ClaudeCodeLineTable, kept: readonly number[], length: number): Runs {
  const rows = table.rows;
  const starts: number[] = [];
  const ends: number[] = [];
  let lastLineOpen = false;
  for (let k = 0; k < kept.length; k++) {
    const base = (kept[k] as number) * ROW;
    const start = rows[base + LINE_START] as number;
    const end = rows[base + LINE_END] as number;
    // The line's own newline goes with it when the file has one there.
    const through = end < length ? end + 1 : end;
    if (ends.length > 0 && ends[ends.length - 1] === start) ends[ends.length - 1] = through;
    else {
      starts.push(start);
      ends.push(through);
    }
    lastLineOpen = end === length;
  }
  return { starts, ends, lastLineOpen };
}

/**
 * Each pair in `[start, end)` (none overlap, and none holds a newline: each lies inside one line),
 * found from key `candidate` on; `found(at)` for each; returns the first key not before `end`.
 */
function eachPair(
  bytes: Uint8Array,
  view: DataView,
  places: Places,
  candidate: number,
  start: number,
  end: number,
  found: (at: number) => void,
): number {
  const { pattern, sessionIdKeys, limit } = places;
  const keys = sessionIdKeys.length;
  let next = candidate;
  while (next < keys && (sessionIdKeys[next] as number) < start) next++;
  const stop = Math.min(end, limit);
  let free = start;
  for (; next < keys && (sessionIdKeys[next] as number) < stop; next++) {
    const at = sessionIdKeys[next] as number;
    if (at < free || !pattern.standsAt(bytes, view, at)) continue;
    found(at);
    free = at + pattern.bytes.length;
  }
  return next;
}

/** The runs copied into one buffer, each pair replaced (a replacement of another length moves the bytes after it). */
function copiedRuns(bytes: Uint8Array, runs: Runs, places: Places, replacement: Buffer): Buffer {
  const length = places.pattern.bytes.length;
  let total = 0;
  for (let r = 0; r < runs.starts.length; r++) total += (runs.ends[r] as number) - (runs.starts[r] as number);
  const grows = Math.max(0, replacement.length - length) * places.sessionIdKeys.length;
  const out = Buffer.allocUnsafe(total + grows);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 0;
  const copy = (start: number, end: number): void => {
    if (end > start) out.set(bytes.subarray(start, end), offset);
    offset += end - start;
  };
  for (let r = 0, candidate = 0; r < runs.starts.length; r++) {
    const start = runs.starts[r] as number;
    const end = runs.ends[r] as number;
    // Runs follow the chain, not the file: a line written before one already copied (out of
    // order, or a line the chain holds twice) is searched from the first key again.
    if (r > 0 && start < (runs.ends[r - 1] as number)) candidate = 0;
    let free = start;
    candidate = eachPair(bytes, view, places, candidate, start, end, (at) => {
      copy(free, at);
      out.set(replacement, offset);
      offset += replacement.length;
      free = at + length;
    });
    copy(free, end);
  }
  return out.subarray(0, offset);
}
