/**
 * The JSON grammar of one line, read from a file held one character per byte (latin1): string
 * tokens found and decoded, any value skipped without building it, keys matched against a small
 * table. The base of the line scanners of the native fork (`scan-claude-code-skeleton.ts`); a
 * scanner *declines* (throws `DECLINE`, and its caller parses the line instead) anything it does
 * not read itself.
 * @module
 */
/** Decodes one JSON string token `[start, end)` of the line (quotes included) exactly as `JSON.parse` does. */
export type DecodeString = (start: number, end: number) => string;

/** Why the scanner declines a line: the caller reads it with `JSON.parse` instead. */
export class Decline extends Error {}
/** The one instance thrown (no stack to capture per line). */
export const DECLINE = new Decline();

export const QUOTE = 34;
export const BACKSLASH = 92;
const COLON = 58;
export const COMMA = 44;
export const OPEN_OBJECT = 123;
export const CLOSE_OBJECT = 125;
export const OPEN_ARRAY = 91;
export const CLOSE_ARRAY = 93;

/** Keys by length: for each length, the keys of that length and their numbers (1-based). */
export type KeyTable = { keys: readonly string[]; byLength: readonly (readonly [string, number][] | undefined)[] };

/** The table of `keys`, numbered from 1 in the order given. */
export function keyTable(keys: readonly string[]): KeyTable {
  const byLength: [string, number][][] = [];
  keys.forEach((key, index) => (byLength[key.length] ??= []).push([key, index + 1]));
  return { keys, byLength };
}

/** Reads JSON tokens of one line at a time out of `src` (`reset` to the line's end first). */
export class JsonLineScanner {
  /** Open containers while skipping a value: true for an object. */
  private readonly stack: boolean[] = [];
  /** Where the line ends. */
  protected end = 0;
  /** The first backslash at or after `backslashFrom` (Infinity: none in the rest of `src`). */
  private backslash = -1;
  private backslashFrom = 0;

  constructor(
    protected readonly src: string,
    protected readonly decode: DecodeString,
  ) {}

  reset(end: number): void {
    this.end = end;
  }

  /**
   * Whether `[from, to)` holds a backslash. The next backslash is looked up once and kept while the
   * positions asked about move forward (as they do, key after key and line after line).
   */
  hasBackslash(from: number, to: number): boolean {
    if (this.backslash < from || from < this.backslashFrom) {
      const found = this.src.indexOf('\\', from);
      this.backslash = found < 0 ? Number.POSITIVE_INFINITY : found;
      this.backslashFrom = from;
    }
    return this.backslash < to;
  }

  /** The index after the string token opening at `at` (which must be a quote). */
  stringEnd(at: number): number {
    const src = this.src;
    if (src.charCodeAt(at) !== QUOTE) throw DECLINE;
    for (let from = at + 1; ;) {
      const quote = src.indexOf('"', from);
      if (quote < 0 || quote >= this.end) throw DECLINE;
      let slash = quote - 1;
      while (src.charCodeAt(slash) === BACKSLASH) slash--;
      if ((quote - 1 - slash) % 2 === 0) return quote + 1;
      from = quote + 1;
    }
  }

  /** The string token `[at, after)` decoded: its raw text when it holds no escape and no byte past ASCII. */
  text(at: number, after: number): string {
    const src = this.src;
    for (let i = at + 1; i < after - 1; i++) {
      const c = src.charCodeAt(i);
      if (c === BACKSLASH || c > 127) return this.decode(at, after);
    }
    return src.slice(at + 1, after - 1);
  }

  /** The interruption mark of the string token `[at, after)`, as `mark` gives it for the decoded text. */
  /** Which key of `table` the key token `[at, after)` is (its number), 0 for another key. */
  keyOf(at: number, after: number, table: KeyTable): number {
    if (this.hasBackslash(at + 1, after - 1)) return table.keys.indexOf(this.decode(at, after)) + 1;
    const candidates = table.byLength[after - at - 2];
    if (candidates === undefined) return 0;
    for (const [key, number] of candidates) if (this.src.startsWith(key, at + 1)) return number;
    return 0;
  }

  /** A key token and its colon at `at`: returns the key token's end; the value starts one after. */
  keyEnd(at: number): number {
    const after = this.stringEnd(at);
    if (this.src.charCodeAt(after) !== COLON) throw DECLINE;
    return after;
  }

  /** After a member's value at `at`: the next member's start, or -(index after the object) at its end. */
  nextMember(at: number): number {
    const c = this.src.charCodeAt(at);
    if (c === CLOSE_OBJECT) return -(at + 1);
    if (c !== COMMA) throw DECLINE;
    return at + 1;
  }

  /** Skips any JSON value at `at`, checked to the grammar outside strings; returns the index after it. */
  skip(at: number): number {
    const src = this.src;
    const stack = this.stack;
    stack.length = 0;
    let i = at;
    for (;;) {
      // At the start of a value.
      const c = src.charCodeAt(i);
      if (c === OPEN_OBJECT) {
        i++;
        if (src.charCodeAt(i) !== CLOSE_OBJECT) {
          stack.push(true);
          i = this.keyEnd(i) + 1;
          continue;
        }
        i++;
      } else if (c === OPEN_ARRAY) {
        i++;
        if (src.charCodeAt(i) !== CLOSE_ARRAY) {
          stack.push(false);
          continue;
        }
        i++;
      } else i = this.scalar(i);
      // After a value: close what ends here, then on to the next value.
      for (;;) {
        if (stack.length === 0) return i;
        const next = src.charCodeAt(i);
        const inObject = stack[stack.length - 1] as boolean;
        if (next === COMMA) {
          i = inObject ? this.keyEnd(i + 1) + 1 : i + 1;
          break;
        }
        if (next !== (inObject ? CLOSE_OBJECT : CLOSE_ARRAY)) throw DECLINE;
        stack.pop();
        i++;
      }
    }
  }

  /** A string, literal or number at `at`; returns the index after it. */
  scalar(at: number): number {
    const src = this.src;
    const c = src.charCodeAt(at);
    if (c === QUOTE) return this.stringEnd(at);
    if (c === 116) return this.literal(at, 'true');
    if (c === 102) return this.literal(at, 'false');
    if (c === 110) return this.literal(at, 'null');
    return this.number(at);
  }

  literal(at: number, word: string): number {
    if (!this.src.startsWith(word, at)) throw DECLINE;
    return at + word.length;
  }

  /** A JSON number: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`. */
  number(at: number): number {
    const src = this.src;
    let i = at;
    if (src.charCodeAt(i) === 45) i++;
    if (src.charCodeAt(i) === 48) i++;
    else i = this.digits(i);
    if (src.charCodeAt(i) === 46) i = this.digits(i + 1);
    const e = src.charCodeAt(i);
    if (e === 101 || e === 69) {
      i++;
      const sign = src.charCodeAt(i);
      if (sign === 43 || sign === 45) i++;
      i = this.digits(i);
    }
    return i;
  }

  digits(from: number): number {
    const src = this.src;
    let j = from;
    while (j < this.end) {
      const c = src.charCodeAt(j);
      if (c < 48 || c > 57) break;
      j++;
    }
    if (j === from) throw DECLINE;
    return j;
  }

  /** The string value at `at` decoded, or undefined (the value skipped) when it is not a string. */
  stringAt(at: number): string | undefined {
    if (this.src.charCodeAt(at) !== QUOTE) return undefined;
    return this.text(at, this.stringEnd(at));
  }

  /** The index after the value at `at` (the value read by `stringAt`/`flagAt` or not at all). */
  after(at: number): number {
    return this.src.charCodeAt(at) === QUOTE ? this.stringEnd(at) : this.skip(at);
  }

  /** True when the value at `at` is the literal `true`. */
  flagAt(at: number): true | undefined {
    return this.src.startsWith('true', at) ? true : undefined;
  }

  /** A value the reader takes with `String(…)`: only a string is read here; anything else declines. */
  idAt(at: number): string {
    if (this.src.charCodeAt(at) !== QUOTE) throw DECLINE;
    return this.text(at, this.stringEnd(at));
  }
}
