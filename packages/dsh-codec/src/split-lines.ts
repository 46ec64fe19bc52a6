/**
 * @module Splits a log's text into lines. dsh writes '\n'; logs edited or copied on other systems may
 * end lines with CRLF or a lone CR (classic Mac). Each is one line break, so such a log decodes to the
 * same events as its LF form instead of reading as one torn line.
 */

/** How a log's lines end: only '\n', only CRLF, only a lone CR, or more than one of these. */
export type LineEndings = 'lf' | 'crlf' | 'cr' | 'mixed';

/**
 * The complete lines of a text (without their breaks), where the last complete line starts, where
 * the unterminated remainder starts (`text.length` when there is none), and the line endings seen.
 */
export type SplitLines = { lines: string[]; lastStart: number; rest: number; lineEndings: LineEndings };

/**
 * A line break: '\n' with any CRs before it (CRLF, and a doubly converted CR CR LF, whose extra CR
 * JSON reads as whitespace anyway), or a lone CR.
 */
const BREAK = /\r*\n|\r/g;

/**
 * Splits `text` at every line break. Without any CR (every log dsh wrote) this is the plain '\n'
 * split. A CR is never legal inside a JSON string, so a CR that is not part of a CRLF is a break:
 * a line holding JSON whitespace CRs between its tokens splits there and is refused as malformed.
 */
export function splitLines(text: string): SplitLines {
  const lines: string[] = [];
  let lastStart = 0;
  let start = 0;
  if (!text.includes('\r')) {
    for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n', start)) {
      lines.push(text.slice(start, newline));
      lastStart = start;
      start = newline + 1;
    }
    return { lines, lastStart, rest: start, lineEndings: 'lf' };
  }
  const seen = { lf: false, crlf: false, cr: false };
  BREAK.lastIndex = 0;
  for (let match = BREAK.exec(text); match !== null; match = BREAK.exec(text)) {
    const found = match[0];
    if (found === '\n') seen.lf = true;
    else if (found.endsWith('\n')) seen.crlf = true;
    else seen.cr = true;
    lines.push(text.slice(start, match.index));
    lastStart = start;
    start = match.index + found.length;
  }
  // The text holds a CR, so at least one break was found.
  const kinds = (Object.keys(seen) as ('lf' | 'crlf' | 'cr')[]).filter((kind) => seen[kind]);
  const lineEndings: LineEndings = kinds.length === 1 ? (kinds[0] as LineEndings) : 'mixed';
  return { lines, lastStart, rest: start, lineEndings };
}
