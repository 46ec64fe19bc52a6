/**
 * @module Reads a log's text line by line. dsh writes '\n'; logs edited or copied on other systems may
 * end lines with CRLF or a lone CR (classic Mac). Each is one line break, so such a log decodes to the
 * same events as its LF form instead of reading as one torn line.
 */

/** How a log's lines end: only '\n', only CRLF, only a lone CR, or more than one of these. */
export type LineEndings = 'lf' | 'crlf' | 'cr' | 'mixed';

/**
 * A line break: '\n' with any CRs before it (CRLF, and a doubly converted CR CR LF, whose extra CR
 * JSON reads as whitespace anyway), or a lone CR.
 */
const BREAK = /\r*\n|\r/g;

/**
 * The complete lines of a text (without their breaks), one at a time. Without any CR (every log dsh
 * wrote) this walks the plain '\n' breaks and builds nothing but each line's string, so reading a large
 * log holds no array of its lines. A CR is never legal inside a JSON string, so a CR that is not part
 * of a CRLF is a break: a line holding JSON whitespace CRs between its tokens splits there and is
 * refused as malformed.
 */
export class LineCursor {
  /** Where the unterminated remainder starts (`text.length` when the text ends with a break). */
  readonly rest: number;
  /** How the complete lines end. */
  readonly lineEndings: LineEndings;
  /** The 1-based number of the line `next` returned last (0 before the first). */
  line = 0;
  /** Where the line `next` returned last starts (UTF-16 offset). */
  start = 0;
  private following = 0;
  /** Start and end offsets of every line, only for a text with CRs (split ahead, by the pattern). */
  private readonly bounds: { starts: number[]; ends: number[] } | undefined;

  constructor(private readonly text: string) {
    if (!text.includes('\r')) {
      this.rest = text.lastIndexOf('\n') + 1;
      this.lineEndings = 'lf';
      this.bounds = undefined;
      return;
    }
    const starts: number[] = [];
    const ends: number[] = [];
    const seen = { lf: false, crlf: false, cr: false };
    let start = 0;
    BREAK.lastIndex = 0;
    for (let match = BREAK.exec(text); match !== null; match = BREAK.exec(text)) {
      const found = match[0];
      if (found === '\n') seen.lf = true;
      else if (found.endsWith('\n')) seen.crlf = true;
      else seen.cr = true;
      starts.push(start);
      ends.push(match.index);
      start = match.index + found.length;
    }
    // The text holds a CR, so at least one break was found.
    const kinds = (Object.keys(seen) as ('lf' | 'crlf' | 'cr')[]).filter((kind) => seen[kind]);
    this.lineEndings = kinds.length === 1 ? (kinds[0] as LineEndings) : 'mixed';
    this.rest = start;
    this.bounds = { starts, ends };
  }

  /** The next complete line without its break, or `undefined` after the last. */
  next(): string | undefined {
    const { bounds } = this;
    if (bounds === undefined) {
      if (this.following >= this.rest) return undefined;
      const end = this.text.indexOf('\n', this.following);
      this.start = this.following;
      this.following = end + 1;
      this.line++;
      return this.text.slice(this.start, end);
    }
    const index = this.line;
    if (index >= bounds.starts.length) return undefined;
    this.start = bounds.starts[index] as number;
    this.line++;
    return this.text.slice(this.start, bounds.ends[index]);
  }

  /** Whether the line `next` returned last is the last complete line. */
  isLast(): boolean {
    return this.bounds === undefined ? this.following >= this.rest : this.line >= this.bounds.starts.length;
  }
}
