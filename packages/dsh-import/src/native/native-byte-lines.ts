/**
 * `splitNativeBytes`: a session file's bytes split into lines exactly as `splitNativeLines` splits
 * its decoded text, each line holding where its bytes are instead of its text (`raw` is decoded when
 * read, and not kept) — and `ChildChunks`, the child's bytes from such lines: each kept line
 * unchanged is a view of the file's bytes (neighbours in the file one view), a changed line and a
 * closer their own bytes. So the fork holds no second copy of the file as text, and no joined child.
 * @module
 */
import { Buffer } from 'node:buffer';
import { readNativeLines, type NativeLine } from './native-line.js';

const NEWLINE = 10;

/** One line of a file's bytes: `raw` decodes `bytes[start, end)` (its text without the `\n`) each time it is read. */
export class ByteLine implements NativeLine {
  constructor(
    readonly index: number,
    readonly value: Record<string, unknown>,
    readonly bytes: Buffer,
    readonly start: number,
    readonly end: number,
  ) {}

  get raw(): string {
    return this.bytes.toString('utf8', this.start, this.end);
  }
}

/**
 * The lines of `bytes` (valid UTF-8) as `splitNativeLines` gives them for its decoded text — same
 * indexes, objects, skipped lines and warnings, same errors — as `ByteLine`s.
 */
export function splitNativeBytes(bytes: Buffer, skipped?: string[]): ByteLine[] {
  const starts: number[] = [];
  const ends: number[] = [];
  for (let start = 0; start < bytes.length;) {
    const newline = bytes.indexOf(NEWLINE, start);
    const end = newline < 0 ? bytes.length : newline;
    starts.push(start);
    ends.push(end);
    start = end + 1;
  }
  const unterminated = bytes.length > 0 && bytes[bytes.length - 1] !== NEWLINE;
  return readNativeLines(
    starts.length,
    (index) => bytes.toString('utf8', starts[index], ends[index]),
    unterminated,
    (index, _raw, value) => new ByteLine(index, value, bytes, starts[index] as number, ends[index] as number),
    skipped,
  );
}

/**
 * The child's bytes built line by line: `add(raw, line)` for each kept line (`raw` its text as the
 * fork writes it, `line` where it came from), then each closer without a line; `chunks()` is what
 * `joinNativeLines` of the texts encodes, each line ending in `\n`, as chunks to write in order.
 */
export class ChildChunks {
  readonly #chunks: Uint8Array[] = [];
  #run: { bytes: Buffer; start: number; end: number } | undefined;

  add(raw: string, line?: NativeLine): void {
    // A line copied as it stands, its `\n` in the file: a view (one with the run before when adjacent).
    if (line instanceof ByteLine && line.end < line.bytes.length && raw === line.raw) {
      const run = this.#run;
      if (run !== undefined && run.bytes === line.bytes && run.end === line.start) run.end = line.end + 1;
      else {
        this.#flush();
        this.#run = { bytes: line.bytes, start: line.start, end: line.end + 1 };
      }
      return;
    }
    this.#flush();
    this.#chunks.push(Buffer.from(`${raw}\n`, 'utf8'));
  }

  /** The chunks so far (call once the last line is added). */
  chunks(): Uint8Array[] {
    this.#flush();
    return this.#chunks;
  }

  #flush(): void {
    const run = this.#run;
    if (run !== undefined) this.#chunks.push(run.bytes.subarray(run.start, run.end));
    this.#run = undefined;
  }
}
