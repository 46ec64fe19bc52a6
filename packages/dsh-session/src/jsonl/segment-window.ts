/**
 * @module `SegmentWindow`: the events of a V7 manifest's segments and own lines by position, each
 * segment read only when one of its events is (`segmented-jsonl-log.ts` is the log around it): a
 * segment not read yet is searched through its index, or one kept line is read alone; a segment read
 * is verified against its digest the first time this process reads it.
 */
import type { SealedSegment, SessionEvent } from 'dsh-codec';
import { deepFreeze } from '../deep-freeze.js';
import { SessionError } from '../session-error.js';
import { fileCallsOf, readEvents, type EventSource } from '../sources/event-source.js';
import type { FileCall } from '../sources/file-call.js';
import { verifiedLinesSource } from './verified-lines.js';
import type { Manifest } from './jsonl-manifest.js';
import { LineEnds } from './line-ends.js';
import { readSegmentSync } from './segments/read-segment-sync.js';
import {
  fileCallsIn,
  indexSegmentLines,
  readKeptLineSync,
  latestLineOf,
  readSegmentIndexSync,
  writeSegmentIndexSync,
  type SegmentIndex,
} from './segments/segment-index.js';
import type { SegmentStore } from './segments/segment-store.js';

/**
 * The buffer `fresh` reads a segment not loaded yet into (its events parsed at once, its bytes not
 * kept), reused by every log of this process; a segment larger than this is read into a buffer of its own.
 */
const SCRATCH_BYTES = 4 << 20;
let scratch: Buffer | undefined;

/**
 * The most bytes of lines whose events one log's unbounded source (an observation's: fork children inherit
 * it) keeps decoded after a read in windows, so the children's first model requests share one decode of
 * what they inherit; the pieces read past it are parsed anew per read, as a bounded source's are.
 */
export const KEEP_DECODED_BYTES = 64 << 20;

/** A run of the log's events: a named segment, or the file's own lines; loaded when first read. */
type Piece = {
  /** The seq of its first event. */
  readonly first: number;
  readonly lines: number;
  readonly segment: SealedSegment | undefined;
  /** Its bytes and line ends, once read (the file's own lines: from the start). */
  loaded?: { bytes: Buffer; ends: LineEnds };
  /** Its events by position (seq `first` on), once an observation read one. */
  source?: EventSource;
  /** A segment's index (its cache file, or built from its bytes), once a search asked; null: its lines are not all events, it has none. */
  index?: SegmentIndex | null;
  /** Events read alone from lines the index keeps (`KEPT_LINE_TYPES`), by position in the piece, while the piece is not read. */
  keptEvents?: Map<number, SessionEvent>;
};

/** The lines a fork child inherits by reference: the segments holding its first events, then the own lines it copies. */
export type ReferencedLines = { segments: SealedSegment[]; bytes: Buffer; ends: LineEnds };

/** A manifest's events by position over its pieces: a named segment each, then the file's own lines. */
export class SegmentWindow {
  readonly #store: SegmentStore;
  readonly #pieces: Piece[] = [];
  /** How many events the manifest holds (its segments' lines and its own). */
  readonly length: number;
  /** The bytes of the pieces whose events the unbounded source keeps decoded (at most `KEEP_DECODED_BYTES`). */
  #keptBytes = 0;

  constructor(store: SegmentStore, file: Buffer, manifest: Manifest) {
    this.#store = store;
    let first = 0;
    for (const segment of manifest.segments) {
      this.#pieces.push({ first, lines: segment.lines, segment });
      first += segment.lines;
    }
    const own = file.subarray(manifest.headerEnd);
    const ends = LineEnds.after(0);
    ends.scan(own, 0);
    this.#pieces.push({ first, lines: ends.length - 1, segment: undefined, loaded: { bytes: own, ends } });
    this.length = first + ends.length - 1;
  }

  /**
   * The first `count` events as a child names them: every segment wholly before the cut as it is, the
   * one holding the cut cut after its line (only that segment is read), then the own lines up to the cut (copied).
   */
  referenced(id: string, count: number): ReferencedLines {
    const segments: SealedSegment[] = [];
    const own = this.#pieces.at(-1) as Piece;
    for (const piece of this.#pieces) {
      if (piece.segment === undefined || piece.first >= count) break;
      if (piece.first + piece.lines <= count) segments.push({ ...piece.segment });
      else {
        const lines = count - piece.first;
        segments.push({ digest: piece.segment.digest, bytes: this.#load(id, piece).ends.at(lines), lines });
      }
    }
    const inFile = Math.max(0, count - own.first);
    const loaded = own.loaded as NonNullable<Piece['loaded']>;
    const bytes = loaded.bytes.subarray(0, loaded.ends.at(inFile));
    const ends = LineEnds.after(0);
    ends.scan(bytes, 0);
    return { segments, bytes, ends };
  }

  /** Piece `piece` read (a segment verified by digest once per process). */
  #load(id: string, piece: Piece): NonNullable<Piece['loaded']> {
    if (piece.loaded !== undefined) return piece.loaded;
    piece.loaded = this.#read(id, piece.segment as SealedSegment);
    return piece.loaded;
  }

  /** The first `segment.bytes` bytes of a segment and their line ends, verified. */
  #read(id: string, segment: SealedSegment, into?: Buffer): NonNullable<Piece['loaded']> {
    const bytes = readSegmentSync(this.#store, segment, into);
    const ends = LineEnds.after(0);
    ends.scan(bytes, 0);
    if (ends.length - 1 !== segment.lines) {
      throw new SessionError(
        'CORRUPT',
        `Cannot read segment ${segment.digest} of session ${id}: expected ${String(segment.lines)} lines in its first ${String(segment.bytes)} bytes, found ${String(ends.length - 1)}.`,
        { sessionId: id },
      );
    }
    return { bytes, ends };
  }

  /** The events of a segment piece read into the shared scratch buffer: valid until the next read into it, so used at once. */
  #passing(id: string, piece: Piece): EventSource {
    scratch ??= Buffer.allocUnsafe(SCRATCH_BYTES);
    const { bytes, ends } = this.#read(id, piece.segment as SealedSegment, scratch);
    return verifiedLinesSource(id, bytes, ends, piece.first);
  }

  /**
   * A segment piece's index: its cache file when intact and long enough, else built from the segment's
   * bytes (read for this, not kept unless the piece was already loaded) and written as the cache.
   */
  #indexOf(id: string, piece: Piece): SegmentIndex | undefined {
    if (piece.index !== undefined) return piece.index ?? undefined;
    const segment = piece.segment as SealedSegment;
    let index = readSegmentIndexSync(this.#store, segment.digest, segment.lines);
    if (index === undefined) {
      const { bytes, ends } = piece.loaded ?? this.#read(id, segment);
      index = indexSegmentLines(segment.digest, bytes, ends);
      writeSegmentIndexSync(this.#store, index);
    }
    piece.index = index ?? null;
    return index;
  }

  /**
   * Event `line` of a segment piece not read yet, from the one line its index keeps there (a search by
   * type found it through the index): read alone and checked against the index's SHA-256 of it, then
   * against its seq. Undefined when the index keeps no such line or the bytes are not it: read the segment.
   */
  #keptEvent(piece: Piece, line: number): SessionEvent | undefined {
    const known = piece.keptEvents?.get(line);
    if (known !== undefined) return known;
    const kept = piece.index?.kept.get(line);
    const segment = piece.segment;
    if (kept === undefined || segment === undefined) return undefined;
    const text = readKeptLineSync(this.#store, segment.digest, segment.bytes, kept);
    if (text === undefined) return undefined;
    let event: unknown;
    try {
      event = JSON.parse(text);
    } catch {
      return undefined;
    }
    if (typeof event !== 'object' || event === null || (event as { seq?: unknown }).seq !== piece.first + line) return undefined;
    const frozen = deepFreeze(event as SessionEvent);
    piece.keptEvents ??= new Map();
    piece.keptEvents.set(line, frozen);
    return frozen;
  }

  /** The piece holding event `index`. */
  #pieceOf(index: number): Piece {
    let low = 0;
    let high = this.#pieces.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >>> 1;
      if ((this.#pieces[middle] as Piece).first <= index) low = middle;
      else high = middle - 1;
    }
    return this.#pieces[low] as Piece;
  }

  /**
   * The events by position, each piece read when one of its events is. `bounded`: at most one segment
   * stays read — reading another drops the one before (its bytes and the events decoded from them;
   * read again, trusted by name, when one of its events is read again).
   */
  source(id: string, bounded = false): EventSource {
    const pieces = this.#pieces;
    let held: Piece | undefined;
    const sourceOf = (piece: Piece): EventSource => {
      if (piece.source !== undefined) return piece.source;
      if (bounded && piece.segment !== undefined) {
        if (held !== undefined) {
          delete held.loaded;
          delete held.source;
        }
        held = piece;
      }
      const { bytes, ends } = this.#load(id, piece);
      const keep = !bounded && this.#keptBytes + bytes.length <= KEEP_DECODED_BYTES;
      if (keep) this.#keptBytes += bytes.length;
      piece.source = verifiedLinesSource(id, bytes, ends, piece.first, keep);
      return piece.source;
    };
    const length = this.length;
    const read = (from: number, to: number): SessionEvent[] => {
      const events: SessionEvent[] = [];
      for (const piece of pieces) {
        const start = Math.max(from, piece.first);
        const end = Math.min(to, piece.first + piece.lines);
        if (start < end) for (const event of readEvents(sourceOf(piece), start - piece.first, end - piece.first)) events.push(event);
      }
      return events;
    };
    return {
      length,
      at: (index) => {
        const piece = this.#pieceOf(index);
        return (
          (piece.loaded === undefined ? this.#keptEvent(piece, index - piece.first) : undefined) ?? sourceOf(piece).at(index - piece.first)
        );
      },
      findLast: (types, end = length) => {
        for (let index = pieces.length - 1; index >= 0; index--) {
          const piece = pieces[index] as Piece;
          if (piece.first >= end || piece.lines === 0) continue;
          const within = Math.min(end - piece.first, piece.lines);
          // A segment not read yet is asked through its index: one holding no match is skipped unread.
          const segmentIndex = piece.loaded === undefined ? this.#indexOf(id, piece) : undefined;
          const indexed = segmentIndex === undefined ? undefined : latestLineOf(segmentIndex, types, within);
          if (indexed === -1) continue;
          const found = indexed ?? sourceOf(piece).findLast(types, within);
          if (found !== -1) return piece.first + found;
        }
        return -1;
      },
      fileCalls: (from, to) => {
        const calls: FileCall[] = [];
        for (const piece of pieces) {
          const start = Math.max(from, piece.first) - piece.first;
          const end = Math.min(to, piece.first + piece.lines) - piece.first;
          if (start >= end) continue;
          const segmentIndex = piece.segment === undefined ? undefined : this.#indexOf(id, piece);
          const indexed = segmentIndex === undefined ? undefined : fileCallsIn(segmentIndex, start, end);
          for (const call of indexed ?? fileCallsOf(sourceOf(piece), start, end)) calls.push(call);
        }
        return calls;
      },
      slice: (count) => read(0, count),
      read,
      fresh: (count) => {
        const events: SessionEvent[] = [];
        for (const piece of pieces) {
          if (piece.first >= count) break;
          // A segment not read yet is parsed from the scratch buffer and not kept: the caller owns what it gets.
          const source = piece.source ?? (piece.loaded === undefined ? this.#passing(id, piece) : sourceOf(piece));
          const taken = Math.min(count - piece.first, piece.lines);
          for (const event of source.fresh?.(taken) ?? source.slice(taken)) events.push(event);
        }
        return events;
      },
    };
  }
}
