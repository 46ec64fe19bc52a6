/**
 * `ByteStringTable`: the strings of one file's string tokens, one JS string per distinct token. A
 * token met again (an entry's uuid, then the next entry's `parentUuid`; the same `sessionId` and
 * `cwd` on every line) gives the string made the first time — decoded once, and hashed once by the
 * maps that later key on it (a string keeps its hash).
 * @module
 */
import { decodeToken } from './json-line-scanner.js';

/** Interns the string tokens of `bytes` by their bytes. */
export class ByteStringTable {
  /** Open addressing: entry number + 1 per slot, 0 for an empty slot. */
  private slots = new Int32Array(4096);
  private readonly hashes: number[] = [];
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  private readonly strings: string[] = [];

  constructor(private readonly bytes: Uint8Array) {}

  /** The string of the token `[at, after)` (quotes included) as `JSON.parse` decodes it; `escaped`: whether it holds a backslash. */
  get(at: number, after: number, escaped: boolean): string {
    const bytes = this.bytes;
    const length = after - at;
    // The length, the first four and the last twelve bytes: ids differ in their tail, and every candidate is compared whole.
    let hash = length;
    for (let i = at + 1, stop = Math.min(at + 5, after); i < stop; i++) hash = Math.imul(hash ^ (bytes[i] as number), 0x01000193);
    for (let i = Math.max(at + 5, after - 12); i < after; i++) hash = Math.imul(hash ^ (bytes[i] as number), 0x01000193);
    const slots = this.slots;
    const mask = slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = (slots[slot] as number) - 1;
      if (entry < 0) {
        const string = decodeToken(bytes, at, after, escaped);
        slots[slot] = this.strings.push(string);
        this.hashes.push(hash);
        this.starts.push(at);
        this.ends.push(after);
        if (this.strings.length * 2 > slots.length) this.grow();
        return string;
      }
      if (this.hashes[entry] !== hash) continue;
      const start = this.starts[entry] as number;
      if ((this.ends[entry] as number) - start !== length) continue;
      let i = 0;
      while (i < length && bytes[start + i] === bytes[at + i]) i++;
      if (i === length) return this.strings[entry] as string;
    }
  }

  /** Twice the slots, every entry placed again by its hash. */
  private grow(): void {
    const slots = new Int32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    this.hashes.forEach((hash, entry) => {
      let slot = hash & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = entry + 1;
    });
    this.slots = slots;
  }
}
