/**
 * `firstNativeLines`: the first lines of a session file's bytes, parsed — what its format is told
 * from (`nativeFormatOf` reads 20) — without reading the rest, so a file of another tool's format
 * is known before the Claude Code scanner reads it whole.
 * @module
 */
import type { Buffer } from 'node:buffer';
import { jsonObjectOf, type NativeLine } from './native-line.js';

const NEWLINE = 10;

/**
 * The first `count` lines that are not blank in `bytes[0, end)`, as `splitNativeLines` parses them
 * (0-based line index, raw text, object); a last line without a newline is taken when it parses (a
 * torn one is not). Undefined when a line is not a JSON object: the caller's full reading reports it.
 */
export function firstNativeLines(bytes: Buffer, end: number, count = 20): NativeLine[] | undefined {
  const lines: NativeLine[] = [];
  for (let start = 0, index = 0; start < end && lines.length < count; index++) {
    const newline = bytes.indexOf(NEWLINE, start);
    const stop = newline < 0 || newline >= end ? end : newline;
    const raw = bytes.toString('utf8', start, stop);
    start = stop + 1;
    if (raw.trim() === '') continue;
    const value = jsonObjectOf(raw);
    if (value !== undefined) lines.push({ index, raw, value });
    else if (stop === end && stop === bytes.length) break;
    else return undefined;
  }
  return lines;
}
