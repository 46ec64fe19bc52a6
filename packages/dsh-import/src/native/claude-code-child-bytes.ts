/**
 * `claudeCodeChildBytes`: the bytes of a native fork's child of a Claude Code file — the kept lines
 * as written, their `"sessionId":"<from>"` pairs replaced exactly as `replaceIdFields` does on
 * text, then the closers — in one pass into one buffer sized by the file (its pages past the child
 * never touched), each run of adjacent kept lines copied in one piece. The pairs are looked for only
 * where the scanner saw a `"sessionId"` key, run by run as each is copied, while the run's bytes are
 * in the cache (a file of megabytes is not, and each key is in another line). A replacement of the
 * same length (a UUID for a UUID: a fork's usual case) is written over the copied run, so it does not
 * split it; any other splits the run at each pair.
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
 * The child's bytes: each of the rows `kept` (file order) as written, every `"sessionId":"<from>"`
 * in it (in every row when `rewriteAll`, else only in the file's first line) replaced by
 * `"sessionId":"<to>"`, each line ending in `\n` (added to a last line without one); then `tail`.
 * Only the places in `sessionIdKeys` (file order) are compared with the pair: the text can stand
 * nowhere else.
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
  writable?: Buffer,
): Buffer {
  const pattern = new Pattern(Buffer.from(`"sessionId":${JSON.stringify(from)}`, 'utf8'));
  const replacement = Buffer.from(`"sessionId":${JSON.stringify(to)}`, 'utf8');
  const length = pattern.bytes.length;
  const keys = sessionIdKeys.length;
  const inPlace = replacement.length === length;
  // Over the file's own bytes when the caller gives them (each run moved down, patched where it lands):
  // no fresh pages for a child of megabytes. Else one buffer of at most every kept line and a newline
  // the file lacks, and each key a pair that grows.
  const over = inPlace && writable !== undefined ? writable : undefined;
  const out = over ?? Buffer.allocUnsafe(bytes.length + 1 + tail.length + keys * Math.max(0, replacement.length - length));
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const outView = new DataView(out.buffer, out.byteOffset, out.byteLength);
  // In place, only the bytes where the two pairs differ are written.
  let first = 0;
  while (first < length && pattern.bytes[first] === replacement[first]) first++;
  let last = length;
  while (last > first && pattern.bytes[last - 1] === replacement[last - 1]) last--;
  const differing = replacement.subarray(first, last);
  const rows = table.rows;
  // Pairs are replaced before `limit`: everywhere, or only in the file's first line (when it is kept).
  let limit = bytes.length;
  if (!rewriteAll) {
    const base = kept.length > 0 ? (kept[0] as number) * ROW : -1;
    limit = base >= 0 && rows[base + LINE_INDEX] === 0 ? (rows[base + LINE_END] as number) : 0;
  }
  let candidate = 0;
  let offset = 0;
  const copy = (start: number, end: number): void => {
    if (over !== undefined) {
      if (offset !== start) over.copyWithin(offset, start, end);
    } else if (end > start) out.set(new Uint8Array(bytes.buffer, bytes.byteOffset + start, end - start), offset);
    offset += end - start;
  };
  // The source bytes [runStart, runEnd) (whole lines, their newlines) not yet copied.
  let runStart = 0;
  let runEnd = 0;
  const flush = (): void => {
    if (runEnd <= runStart) return;
    while (candidate < keys && (sessionIdKeys[candidate] as number) < runStart) candidate++;
    // A pair cannot hold a newline: each lies inside one line of the run. `free`: where the next may start (none overlap).
    const stop = Math.min(runEnd, limit);
    let free = runStart;
    if (inPlace) {
      const runOffset = offset - runStart;
      copy(runStart, runEnd);
      for (; candidate < keys && (sessionIdKeys[candidate] as number) < stop; candidate++) {
        const at = sessionIdKeys[candidate] as number;
        // The run's bytes are compared where they landed (over the file's bytes, the source is moved).
        if (at < free || !pattern.standsAt(out, outView, runOffset + at)) continue;
        if (differing.length > 0) out.set(differing, runOffset + at + first);
        free = at + length;
      }
    } else {
      for (; candidate < keys && (sessionIdKeys[candidate] as number) < stop; candidate++) {
        const at = sessionIdKeys[candidate] as number;
        if (at < free || !pattern.standsAt(bytes, view, at)) continue;
        copy(free, at);
        out.set(replacement, offset);
        offset += replacement.length;
        free = at + length;
      }
      copy(free, runEnd);
    }
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
  if (over !== undefined && offset + tail.length > over.length) {
    // The closers do not fit past the kept bytes: the child in a buffer of its own.
    const child = Buffer.allocUnsafe(offset + tail.length);
    over.copy(child, 0, 0, offset);
    child.set(tail, offset);
    return child;
  }
  out.set(tail, offset);
  return out.subarray(0, offset + tail.length);
}
