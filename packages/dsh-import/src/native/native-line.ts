/**
 * A session file's lines as the native fork, export and repair handle them: the raw text of each
 * line (kept byte for byte) beside its parsed object and its 0-based index in the file.
 */
import { ImportError } from '../import-error.js';

/** One line: `raw` without its `\n`, `value` its object, `index` its 0-based position. */
export type NativeLine = { index: number; raw: string; value: Record<string, unknown> };

/**
 * Splits `text` into lines; blank lines are skipped, a torn last line (no whole JSON object) is
 * dropped, any other line that is not a JSON object is skipped with a warning in `skipped` naming it
 * (never copied into a child) — or, without `skipped` (strict), `MALFORMED_LINE`, as is a text no line of which is JSON.
 */
export function splitNativeLines(text: string, skipped?: string[]): NativeLine[] {
  const raw = text.split('\n');
  if (raw[raw.length - 1] === '') raw.pop();
  return readNativeLines(
    raw.length,
    (index) => raw[index] as string,
    !text.endsWith('\n'),
    (index, line, value) => ({ index, raw: line, value }),
    skipped,
  );
}

/**
 * `splitNativeLines`' rules over `count` lines whose texts `rawAt` gives (`unterminated`: the last
 * has no `\n`), each kept line made by `make` — shared by the split of a text and of a file's bytes.
 */
export function readNativeLines<Line extends NativeLine>(
  count: number,
  rawAt: (index: number) => string,
  unterminated: boolean,
  make: (index: number, raw: string, value: Record<string, unknown>) => Line,
  skipped?: string[],
): Line[] {
  const lines: Line[] = [];
  let firstSkipped: ImportError | undefined;
  for (let index = 0; index < count; index++) {
    const line = rawAt(index);
    if (line.trim() === '') continue;
    const value = jsonObjectOf(line);
    if (value !== undefined) {
      lines.push(make(index, line, value));
      continue;
    }
    if (index === count - 1 && unterminated) continue;
    if (skipped === undefined) throw malformedLine(index, line);
    firstSkipped ??= malformedLine(index, line);
    skipped.push(skippedLineWarning(index, line));
  }
  // No line is JSON: the text is no session file, refused at its first line.
  if (lines.length === 0 && firstSkipped !== undefined) throw firstSkipped;
  return lines;
}

/** The object a line of JSON holds, or undefined when it is not JSON or not an object. */
export function jsonObjectOf(line: string): Record<string, unknown> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** `MALFORMED_LINE` for the line at 0-based `index` whose text is `line`. */
export function malformedLine(index: number, line: string): ImportError {
  const shown = line.length > 80 ? `${line.slice(0, 80)}…` : line;
  return new ImportError(
    'MALFORMED_LINE',
    `line ${String(index + 1)}: expected one JSON object per line, received ${JSON.stringify(shown)}`,
    { line: index + 1 },
  );
}

/** The warning for the malformed line at 0-based `index` that a lenient read skips. */
export function skippedLineWarning(index: number, line: string): string {
  const shown = line.length > 80 ? `${line.slice(0, 80)}…` : line;
  return `line ${String(index + 1)}: not a JSON object (${JSON.stringify(shown)}); skipped, as the tools skip it (--strict refuses it)`;
}

/** The lines joined back into a file's text, each ending in `\n`. */
export function joinNativeLines(raws: readonly string[]): string {
  if (raws.length === 0) return '';
  // One flat string: a trailing `+ '\n'` would make a rope the writer flattens again.
  const all = raws.slice();
  all.push('');
  return all.join('\n');
}

/**
 * A deterministic id in UUID shape from `parts` (FNV-1a, four rounds), so the same fork request
 * gives the same new entry ids: pure, no clock and no randomness inside dsh-import.
 */
export function derivedUuid(...parts: string[]): string {
  const input = parts.join('\u0000');
  let hex = '';
  for (let round = 0; round < 4; round++) {
    let hash = 0x811c9dc5 ^ round;
    for (let i = 0; i < input.length; i++) {
      hash ^= input.charCodeAt(i);
      hash = Math.imul(hash, 0x01000193) >>> 0;
    }
    hex += hash.toString(16).padStart(8, '0');
  }
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** A JSON string field of `value`, or undefined. */
export function field(value: Record<string, unknown> | undefined, key: string): string | undefined {
  const found = value?.[key];
  return typeof found === 'string' ? found : undefined;
}

/**
 * Replaces the value of each JSON field named in `keys` that equals `from` with `to`, in the raw
 * text, so every other byte of the line stays as written. Only compact `"key":"value"` pairs.
 */
export function replaceIdFields(raw: string, keys: readonly string[], from: string, to: string): string {
  let out = raw;
  const value = JSON.stringify(from);
  for (const key of keys) {
    const name = JSON.stringify(key);
    const pair = `${name}:${value}`;
    if (out.includes(pair)) out = out.replaceAll(pair, `${name}:${JSON.stringify(to)}`);
  }
  return out;
}
