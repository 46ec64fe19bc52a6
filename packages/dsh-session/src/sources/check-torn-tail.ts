/**
 * @module The bound on crash repair: a repair may drop the one line a writer was cut off in, never
 * records. Whatever the codec called the torn tail, if dropping it would drop more than one line or
 * more than one record, the log is refused as `CORRUPT` and left as it is.
 */
import type { TornTail } from 'dsh-codec';
import { SessionError } from '../session-error.js';

/** The text after UTF-8 byte `offset`, found by walking back from the end (no copy of the log). */
function textAfterByte(text: string, offset: number): string {
  let bytes = Buffer.byteLength(text, 'utf8') - offset;
  let index = text.length;
  while (bytes > 0 && index > 0) {
    const code = text.charCodeAt(index - 1);
    if (code >= 0xdc00 && code <= 0xdfff && index > 1 && (text.charCodeAt(index - 2) & 0xfc00) === 0xd800) {
      bytes -= 4;
      index -= 2;
    } else {
      bytes -= code < 0x80 ? 1 : code < 0x800 ? 2 : 3;
      index -= 1;
    }
  }
  return text.slice(index);
}

/** Where the first complete JSON object or array at the start of `text` ends, or -1 when none does. */
function endOfFirstValue(text: string): number {
  const start = text.search(/\S/);
  if (start === -1 || (text[start] !== '{' && text[start] !== '[')) return -1;
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{' || char === '[') depth++;
    else if (char === '}' || char === ']') {
      depth--;
      if (depth === 0) return index + 1;
    }
  }
  return -1;
}

/**
 * Refuses with `CORRUPT` a torn tail that is not one unfinished line: one holding a line break (LF
 * or CR) before its end, or a complete JSON value followed by more text. An append writes whole
 * `'\n'`-terminated lines whose JSON escapes every CR and LF, so a writer cut off leaves neither.
 */
export function checkTornTail(id: string, text: string, tornTail: TornTail): void {
  const piece = textAfterByte(text, tornTail.offset).replace(/(?:\r*\n|\r)$/, '');
  const where = `line ${String(tornTail.line)}, byte ${String(tornTail.offset)}`;
  let problem: string | undefined;
  const breakAt = piece.search(/[\r\n]/);
  if (breakAt !== -1) {
    problem = `a line break at character ${String(breakAt)} of it, so it is more than one line`;
  } else {
    const end = endOfFirstValue(piece);
    if (end !== -1 && piece.slice(end).trim() !== '')
      problem = `a complete record followed by ${JSON.stringify(piece.slice(end, end + 40))}, so it is more than one record`;
  }
  if (problem === undefined) return;
  throw new SessionError(
    'CORRUPT',
    `Cannot repair session ${id} (${where}): expected its unfinished final line to be one line cut short, got ${problem}. A repair may drop only that line; the log is refused and left untouched.`,
    { sessionId: id },
  );
}
