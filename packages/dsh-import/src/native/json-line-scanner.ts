/**
 * The JSON grammar of one line, read from the file's bytes (valid UTF-8, checked by the caller):
 * string tokens found and checked to the grammar (escapes, no raw control character), any value
 * skipped without building it, keys matched against a small table. The base of the line scanners
 * of the native fork (`scan-claude-code-skeleton.ts`); a scanner *declines* (throws `DECLINE`, and
 * its caller parses the line instead) anything it does not read itself, such as whitespace between
 * tokens — so what it accepts is JSON that `JSON.parse` accepts too.
 * @module
 */
import { Buffer } from 'node:buffer';

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
/** The deepest nesting the scanner follows (a deeper line is parsed). */
const MAX_DEPTH = 512;

/** Bytes inside a string token: 0 plain, 1 the closing quote, 2 a backslash, 3 refused (a raw control character). */
const IN_STRING = new Uint8Array(256);
IN_STRING.fill(3, 0, 0x20);
IN_STRING[QUOTE] = 1;
IN_STRING[BACKSLASH] = 2;
/** What may follow a backslash: 1 a one-character escape, 2 `u` (four hex digits follow). */
const ESCAPE = new Uint8Array(256);
for (const c of '"\\/bfnrt') ESCAPE[c.charCodeAt(0)] = 1;
ESCAPE[117] = 2;
const HEX = new Uint8Array(256);
for (const c of '0123456789abcdefABCDEF') HEX[c.charCodeAt(0)] = 1;

/** The string token `[at, after)` of `bytes` decoded as `JSON.parse` does (`escaped`: whether it holds a backslash). */
export function decodeToken(bytes: Uint8Array, at: number, after: number, escaped: boolean): string {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (escaped) return JSON.parse(buffer.toString('utf8', at, after)) as string;
  for (let i = at + 1; i < after - 1; i++) if ((bytes[i] as number) > 127) return buffer.toString('utf8', at + 1, after - 1);
  return buffer.toString('latin1', at + 1, after - 1);
}

/** Whether the four bytes at `at` are hex digits. */
function isHex4(bytes: Uint8Array, at: number): boolean {
  return (
    HEX[bytes[at] as number] === 1 &&
    HEX[bytes[at + 1] as number] === 1 &&
    HEX[bytes[at + 2] as number] === 1 &&
    HEX[bytes[at + 3] as number] === 1
  );
}

/** Keys by byte length: for each length, the keys of that length (as bytes) and their numbers (1-based). */
export type KeyTable = { keys: readonly string[]; byLength: readonly (readonly [Uint8Array, number][] | undefined)[] };

/** The table of `keys` (ASCII), numbered from 1 in the order given. */
export function keyTable(keys: readonly string[]): KeyTable {
  const byLength: [Uint8Array, number][][] = [];
  keys.forEach((key, index) => (byLength[key.length] ??= []).push([Uint8Array.from(key, (c) => c.charCodeAt(0)), index + 1]));
  return { keys, byLength };
}

/** Reads JSON tokens of one line at a time out of `bytes` (`reset` to the line's end first). */
export class JsonLineScanner {
  /** Open containers while skipping a value: 1 for an object, 0 for an array. */
  private readonly stack = new Uint8Array(MAX_DEPTH);
  /** Where the line ends. */
  protected end = 0;
  /** Whether the last string token `stringEnd` read held a backslash. */
  protected escaped = false;
  /** Where the value of the key `keyOf` read last starts. */
  protected keyAfter = 0;

  /** `watch`'s bytes, and where in the file they were met as the end of a key token, in file order. */
  private readonly watch: Uint8Array;
  readonly watched: number[] = [];

  /**
   * `watch`: a key token (quotes included, ASCII) whose every place in the lines read the scanner
   * records in `watched` — also where it ends a longer key after an escaped quote (`"a\"sessionId"`):
   * every place the text `"sessionId":` stands in a line of JSON is one of those.
   */
  constructor(
    protected readonly bytes: Uint8Array,
    watch = '',
  ) {
    this.watch = Uint8Array.from(watch, (c) => c.charCodeAt(0));
  }

  reset(end: number): void {
    this.end = end;
  }

  /** The index after the string token opening at `at` (which must be a quote), checked to the grammar. */
  stringEnd(at: number): number {
    const bytes = this.bytes;
    if (bytes[at] !== QUOTE) throw DECLINE;
    const end = this.end;
    let escaped = false;
    for (let i = at + 1; i < end; i++) {
      const kind = IN_STRING[bytes[i] as number];
      if (kind === 0) continue;
      if (kind === 1) {
        this.escaped = escaped;
        return i + 1;
      }
      if (kind === 3) throw DECLINE;
      escaped = true;
      const escape = ESCAPE[bytes[i + 1] as number];
      if (escape === 1) i++;
      else if (escape === 2 && isHex4(bytes, i + 2)) i += 5;
      else throw DECLINE;
    }
    throw DECLINE;
  }

  /** The string token `[at, after)` (just read by `stringEnd`) decoded as `JSON.parse` does. */
  decode(at: number, after: number): string {
    return decodeToken(this.bytes, at, after, this.escaped);
  }

  /** Which key of `table` the key token at `at` is (its number, 0 for another key); sets `keyAfter` to its colon's index + 1. */
  keyOf(at: number, table: KeyTable): number {
    const after = this.stringEnd(at);
    const bytes = this.bytes;
    if (bytes[after] !== COLON) throw DECLINE;
    this.keyAfter = after + 1;
    this.watchKey(after);
    if (this.escaped) return table.keys.indexOf(this.decode(at, after)) + 1;
    const candidates = table.byLength[after - at - 2];
    if (candidates === undefined) return 0;
    for (const [key, number] of candidates) {
      let i = 0;
      while (i < key.length && bytes[at + 1 + i] === key[i]) i++;
      if (i === key.length) return number;
    }
    return 0;
  }

  /** After a member's value at `at`: the next member's start, or -(index after the object) at its end. */
  nextMember(at: number): number {
    const c = this.bytes[at];
    if (c === CLOSE_OBJECT) return -(at + 1);
    if (c !== COMMA) throw DECLINE;
    return at + 1;
  }

  /** A key token and its colon at `at`: returns where its value starts. */
  private keyValue(at: number): number {
    const after = this.stringEnd(at);
    if (this.bytes[after] !== COLON) throw DECLINE;
    this.watchKey(after);
    return after + 1;
  }

  /** Records the key token ending at `after` when it ends with the watched key. */
  private watchKey(after: number): void {
    const watch = this.watch;
    const length = watch.length;
    const bytes = this.bytes;
    // Most keys differ in the last letter.
    if (length === 0 || bytes[after - 2] !== watch[length - 2]) return;
    const start = after - length;
    for (let i = 0; i < length; i++) if (bytes[start + i] !== watch[i]) return;
    this.watched.push(start);
  }

  /** Skips any JSON value at `at`, checked to the grammar; returns the index after it. */
  skip(at: number): number {
    const bytes = this.bytes;
    const stack = this.stack;
    let depth = 0;
    let i = at;
    for (;;) {
      // At the start of a value.
      const c = bytes[i];
      if (c === QUOTE) i = this.stringEnd(i);
      else if (c === OPEN_OBJECT) {
        i++;
        if (bytes[i] !== CLOSE_OBJECT) {
          if (depth === MAX_DEPTH) throw DECLINE;
          stack[depth++] = 1;
          i = this.keyValue(i);
          continue;
        }
        i++;
      } else if (c === OPEN_ARRAY) {
        i++;
        if (bytes[i] !== CLOSE_ARRAY) {
          if (depth === MAX_DEPTH) throw DECLINE;
          stack[depth++] = 0;
          continue;
        }
        i++;
      } else i = this.scalar(i);
      // After a value: close what ends here, then on to the next value.
      for (;;) {
        if (depth === 0) return i;
        const next = bytes[i];
        const inObject = stack[depth - 1] === 1;
        if (next === COMMA) {
          i = inObject ? this.keyValue(i + 1) : i + 1;
          break;
        }
        if (next !== (inObject ? CLOSE_OBJECT : CLOSE_ARRAY)) throw DECLINE;
        depth--;
        i++;
      }
    }
  }

  /** A string, literal or number at `at`; returns the index after it. */
  scalar(at: number): number {
    const bytes = this.bytes;
    const c = bytes[at];
    if (c === QUOTE) return this.stringEnd(at);
    // true, false, null
    if (c === 116) {
      if (bytes[at + 1] === 114 && bytes[at + 2] === 117 && bytes[at + 3] === 101) return at + 4;
    } else if (c === 102) {
      if (bytes[at + 1] === 97 && bytes[at + 2] === 108 && bytes[at + 3] === 115 && bytes[at + 4] === 101) return at + 5;
    } else if (c === 110) {
      if (bytes[at + 1] === 117 && bytes[at + 2] === 108 && bytes[at + 3] === 108) return at + 4;
    } else return this.number(at);
    throw DECLINE;
  }

  /** A JSON number: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`. */
  number(at: number): number {
    const bytes = this.bytes;
    let i = at;
    if (bytes[i] === 45) i++;
    if (bytes[i] === 48) i++;
    else i = this.digits(i);
    if (bytes[i] === 46) i = this.digits(i + 1);
    const e = bytes[i];
    if (e === 101 || e === 69) {
      i++;
      const sign = bytes[i];
      if (sign === 43 || sign === 45) i++;
      i = this.digits(i);
    }
    return i;
  }

  digits(from: number): number {
    const bytes = this.bytes;
    let j = from;
    while (j < this.end) {
      const c = bytes[j] as number;
      if (c < 48 || c > 57) break;
      j++;
    }
    if (j === from) throw DECLINE;
    return j;
  }

  /** The index after the value at `at`. */
  after(at: number): number {
    return this.bytes[at] === QUOTE ? this.stringEnd(at) : this.skip(at);
  }

  /** True when the value at `at` is the literal `true`. */
  flagAt(at: number): true | undefined {
    const bytes = this.bytes;
    return bytes[at] === 116 && bytes[at + 1] === 114 && bytes[at + 2] === 117 && bytes[at + 3] === 101 ? true : undefined;
  }
}
