/**
 * The sealed lines this store last read of each session, kept so the next read of the same session
 * transfers only the rows written since. Sound because dsh-postgres never changes a row below a
 * segment's written end (appends add rows, a rewrite makes a new segment, segment ids are never
 * reused): while a session's row names the same segment and header, its first `lines.length` events
 * are still these lines. A session's array only grows (reads hand it out with their own count, so
 * extending it never changes what an earlier read holds). Bounded by the characters it holds, least
 * recently read dropped first.
 */
import type { SessionHeader } from 'dsh-codec';

/** One session's lines as read: the segment and header line they were read under. @internal */
export type CachedLines = {
  readonly segment: string;
  readonly headerLine: string;
  readonly header: SessionHeader;
  /** Append-only: `extend` pushes onto it. */
  readonly lines: string[];
  /** Characters held: the header line and every line. */
  size: number;
};

/** Least-recently-read sessions' lines up to `maxChars` characters in all. @internal */
export class ReadCache {
  readonly #maxChars: number;
  readonly #entries = new Map<string, CachedLines>();
  #chars = 0;

  constructor(maxChars: number) {
    this.#maxChars = maxChars;
  }

  /** How many characters the cache holds now (lines and header lines). */
  get chars(): number {
    return this.#chars;
  }

  /** The lines last read of session `id` (marked as the most recently read), if kept. */
  get(id: string): CachedLines | undefined {
    const entry = this.#entries.get(id);
    if (entry === undefined) return undefined;
    this.#entries.delete(id);
    this.#entries.set(id, entry);
    return entry;
  }

  /** Keeps `lines` (now owned by the cache) as session `id`'s; a log larger than the bound is not kept. */
  set(id: string, value: Omit<CachedLines, 'size'>): void {
    this.delete(id);
    let size = value.headerLine.length;
    for (let index = 0; index < value.lines.length; index++) size += (value.lines[index] as string).length;
    const entry: CachedLines = { ...value, size };
    if (this.#fit(size)) {
      this.#entries.set(id, entry);
      this.#chars += size;
    }
  }

  /** Appends `more` to a kept entry's lines (the rows written since it was read); drops the entry when it outgrows the bound. */
  extend(id: string, entry: CachedLines, more: readonly string[]): void {
    let added = 0;
    for (const line of more) {
      entry.lines.push(line);
      added += line.length;
    }
    if (this.#entries.get(id) !== entry) return;
    this.#entries.delete(id);
    this.#chars -= entry.size;
    entry.size += added;
    if (this.#fit(entry.size)) {
      this.#entries.set(id, entry);
      this.#chars += entry.size;
    }
  }

  delete(id: string): void {
    const entry = this.#entries.get(id);
    if (entry === undefined) return;
    this.#entries.delete(id);
    this.#chars -= entry.size;
  }

  clear(): void {
    this.#entries.clear();
    this.#chars = 0;
  }

  /** Drops the least recently read entries until `size` more fits; false when it never can. */
  #fit(size: number): boolean {
    if (size > this.#maxChars) return false;
    for (const [oldest, entry] of this.#entries) {
      if (this.#chars + size <= this.#maxChars) break;
      this.#entries.delete(oldest);
      this.#chars -= entry.size;
    }
    return true;
  }
}
