/**
 * `assertUtf8Lines`: the text path of the native fork decodes a file's lines as UTF-8, where a byte that is
 * not UTF-8 would become U+FFFD in the child — so such a line is refused instead (`MALFORMED_LINE`),
 * and every kept line is its own bytes (SPEC §27). A torn last line, which no path keeps, is let be.
 * @module
 */
import { Buffer, isUtf8 } from 'node:buffer';
import { ImportError } from '../import-error.js';
import { jsonObjectOf } from './native-line.js';

/** Throws `MALFORMED_LINE` for the first line of `bytes` that is not valid UTF-8, a torn last line aside. */
export function assertUtf8Lines(bytes: Buffer): void {
  if (isUtf8(bytes)) return;
  for (let start = 0, index = 0; start < bytes.length; index++) {
    const newline = bytes.indexOf(10, start);
    const end = newline < 0 ? bytes.length : newline;
    const line = bytes.subarray(start, end);
    if (!isUtf8(line)) {
      const decoded = line.toString('utf8');
      if (newline < 0 && jsonObjectOf(decoded) === undefined) return;
      const shown = decoded.length > 80 ? `${decoded.slice(0, 80)}…` : decoded;
      throw new ImportError(
        'MALFORMED_LINE',
        `line ${String(index + 1)}: expected UTF-8 text, received bytes that are not UTF-8 (shown as U+FFFD: ${JSON.stringify(shown)}); dsh copies a line byte for byte or not at all`,
        { line: index + 1 },
      );
    }
    start = end + 1;
  }
}
