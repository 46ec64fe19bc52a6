/**
 * `ByteStringTable`: the strings of one file's string tokens as small integers (*keys*), equal
 * keys exactly for equal strings. A token is keyed by its bytes (its UTF-8 text, for a token
 * without escapes) — no JS string is made to key it, and the string of a key is made only when it
 * is asked for. A string that comes as a value (an escaped token decoded, a line `JSON.parse`
 * read) is keyed by its UTF-8 bytes the same way, so it finds the key of the same text written
 * plainly.
 * @module
 */
import { Buffer } from 'node:buffer';
import { decodeToken } from './json-line-scanner.js';

// A lone surrogate has no UTF-8 form: such strings are keyed by value, apart (no token can equal one).
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Where a key's text is: in the file's bytes, in `extra`, or nowhere (a string with a lone surrogate). */
const IN_FILE = 0;
const IN_EXTRA = 1;
const UNPAIRED = 2;
const HASH = 0;
const WHERE = 1;
const START = 2;
const END = 3;
const INFO = 4;

/** Interns the string tokens of `bytes` (valid UTF-8) by their bytes. */
export class ByteStringTable {
  /** Open addressing: key + 1 per slot, 0 for an empty slot. */
  private slots = new Int32Array(4096);
  /** Per key, `INFO` numbers: its hash, where its text is (`where`) and the text's `[start, end)` there. */
  private info = new Int32Array(INFO * 1024);
  private readonly strings: (string | undefined)[] = [];
  private extra = new Uint8Array(256);
  private extraLength = 0;
  private readonly unpaired = new Map<string, number>();

  constructor(private readonly bytes: Uint8Array) {}

  /** How many keys there are (keys are 0 … size - 1). */
  get size(): number {
    return this.strings.length;
  }

  /** The key of the string token `[at, after)` (quotes included); `escaped`: whether it holds a backslash. */
  token(at: number, after: number, escaped: boolean): number {
    if (escaped) return this.keyOf(decodeToken(this.bytes, at, after, true));
    return this.lookup(this.bytes, at + 1, after - 1, true);
  }

  /** The key of `string`. */
  keyOf(string: string): number {
    if (LONE_SURROGATE.test(string)) {
      let key = this.unpaired.get(string);
      if (key === undefined) {
        key = this.add(0, 0, UNPAIRED, string, 0);
        this.unpaired.set(string, key);
      }
      return key;
    }
    const encoded = Buffer.from(string, 'utf8');
    const key = this.lookup(encoded, 0, encoded.length, false);
    if (key >= 0) return key;
    if (this.extraLength + encoded.length > this.extra.length) {
      const grown = new Uint8Array(Math.max(this.extra.length * 2, this.extraLength + encoded.length));
      grown.set(this.extra.subarray(0, this.extraLength));
      this.extra = grown;
    }
    this.extra.set(encoded, this.extraLength);
    this.extraLength += encoded.length;
    return this.add(this.extraLength - encoded.length, this.extraLength, IN_EXTRA, string, this.hash(encoded, 0, encoded.length));
  }

  /** The key of `string` if the table holds it, else -1. */
  find(string: string): number {
    if (LONE_SURROGATE.test(string)) return this.unpaired.get(string) ?? -1;
    const encoded = Buffer.from(string, 'utf8');
    return this.lookup(encoded, 0, encoded.length, false);
  }

  /** The string of `key` (made once, on the first ask). */
  string(key: number): string {
    let string = this.strings[key];
    if (string === undefined) {
      const buffer = Buffer.from(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength);
      const start = this.info[key * INFO + START] as number;
      const end = this.info[key * INFO + END] as number;
      string = decodeToken(buffer, start - 1, end + 1, false);
      this.strings[key] = string;
    }
    return string;
  }

  /** The length, the first four and the last twelve bytes: ids differ in their tail, and every candidate is compared whole. */
  private hash(source: Uint8Array, start: number, end: number): number {
    let hash = end - start;
    for (let i = start, stop = Math.min(start + 4, end); i < stop; i++) hash = Math.imul(hash ^ (source[i] as number), 0x01000193);
    for (let i = Math.max(start + 4, end - 12); i < end; i++) hash = Math.imul(hash ^ (source[i] as number), 0x01000193);
    return hash;
  }

  /**
   * The key of the text `source[start, end)`, or -1 when the table does not hold it: then, with
   * `insert`, it is added as a range of the file's bytes (`source` is then the file's bytes).
   */
  private lookup(source: Uint8Array, start: number, end: number, insert: boolean): number {
    const hash = this.hash(source, start, end);
    const length = end - start;
    const slots = this.slots;
    const mask = slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const key = (slots[slot] as number) - 1;
      if (key < 0) return insert ? this.add(start, end, IN_FILE, undefined, hash) : -1;
      const info = this.info;
      const at = key * INFO;
      if (info[at + HASH] !== hash) continue;
      const from = info[at + START] as number;
      if ((info[at + END] as number) - from !== length) continue;
      const held = info[at + WHERE] === IN_EXTRA ? this.extra : this.bytes;
      let i = 0;
      while (i < length && held[from + i] === source[start + i]) i++;
      if (i === length) return key;
    }
  }

  private add(start: number, end: number, where: number, string: string | undefined, hash: number): number {
    const key = this.strings.length;
    this.strings.push(string);
    if ((key + 1) * INFO > this.info.length) {
      const info = new Int32Array(this.info.length * 2);
      info.set(this.info);
      this.info = info;
    }
    const at = key * INFO;
    this.info[at + HASH] = hash;
    this.info[at + WHERE] = where;
    this.info[at + START] = start;
    this.info[at + END] = end;
    if (where !== UNPAIRED) this.place(this.slots, key);
    if (this.strings.length * 2 > this.slots.length) {
      const slots = new Int32Array(this.slots.length * 2);
      for (let other = 0; other <= key; other++) if (this.info[other * INFO + WHERE] !== UNPAIRED) this.place(slots, other);
      this.slots = slots;
    }
    return key;
  }

  private place(slots: Int32Array, key: number): void {
    const mask = slots.length - 1;
    let slot = (this.info[key * INFO + HASH] as number) & mask;
    while (slots[slot] !== 0) slot = (slot + 1) & mask;
    slots[slot] = key + 1;
  }
}
