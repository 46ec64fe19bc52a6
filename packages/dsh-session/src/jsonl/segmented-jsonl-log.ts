/**
 * @module `SegmentedJsonlLog`: a V7 manifest whose verified stamp vouches for its file, read lazily
 * (docs/decisions/2026-12-07-jsonl-forks-by-reference.md). Its events are the named segments' lines,
 * then the file's own lines; an observation reads a segment only when one of its events is read (the
 * cut, the latest turn, a title or config searched from the end), each segment hashed against its
 * digest the first time this process reads it. A fork names the segments before its cut and cuts the
 * one holding it — reading that one only (`referenced`). Decoding every event (`open`, `inspect`)
 * reads them all.
 */
import { CURRENT_FORMAT_VERSION, type SealedSegment, type SessionEvent, type SessionHeader } from 'dsh-codec';
import { closeOpenTail } from '../close-open-tail.js';
import { deepFreeze } from '../deep-freeze.js';
import type { DecodedLog, ObservedLog, StoredLines, TrustedSource } from '../fast-backend.js';
import { SessionError } from '../session-error.js';
import type { StoredLog } from '../session-backend.js';
import { fileCallsOf, latestTurnOf, readEvents, type EventSource } from '../sources/event-source.js';
import type { FileCall } from '../sources/file-call.js';
import { VerifiedJsonlLog } from './verified-jsonl-log.js';
import { verifiedLinesSource } from './verified-lines.js';
import { headerLineWithoutSegments, type Manifest } from './jsonl-manifest.js';
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
import { verifySegmentSync } from './segments/verify-segment-sync.js';

/**
 * The buffer `fresh` reads a segment not loaded yet into (its events parsed at once, its bytes not
 * kept), reused by every log of this process; a segment larger than this is read into a buffer of its own.
 */
const SCRATCH_BYTES = 4 << 20;
let scratch: Buffer | undefined;

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

/** A verified manifest's log: segments read only where an event is read. */
export class SegmentedJsonlLog implements StoredLines {
  readonly #store: SegmentStore;
  readonly #file: Buffer;
  readonly #manifest: Manifest;
  readonly #pieces: Piece[] = [];
  readonly #length: number;
  #whole: VerifiedJsonlLog | undefined;

  constructor(store: SegmentStore, file: Buffer, manifest: Manifest) {
    this.#store = store;
    this.#file = file;
    this.#manifest = manifest;
    let first = 0;
    for (const segment of manifest.segments) {
      this.#pieces.push({ first, lines: segment.lines, segment });
      first += segment.lines;
    }
    const own = file.subarray(manifest.headerEnd);
    const ends = LineEnds.after(0);
    ends.scan(own, 0);
    this.#pieces.push({ first, lines: ends.length - 1, segment: undefined, loaded: { bytes: own, ends } });
    this.#length = first + ends.length - 1;
  }

  /** Only the header is decoded here, and the latest turn (to learn whether it needs repair): the segments holding it are read. */
  observe(id: string): ObservedLog {
    const header = this.#header(id);
    if (header === undefined) return this.#asWhole().observe(id);
    const source = this.#source(id);
    const needsRepair = closeOpenTail(latestTurnOf(source, this.#length), 'interrupted').length > 0;
    return { header, formatVersion: CURRENT_FORMAT_VERSION, needsRepair, source, validated: this.#length };
  }

  decode(id: string): DecodedLog {
    return this.#asWhole().decode(id);
  }

  /**
   * The events as `open` takes them (SPEC §24: resume holds what the model needs): every segment is
   * checked against its digest here, hashed in bounded pieces and not kept; the events are then read
   * by position, holding at most one segment's bytes at a time (`#source`'s `bounded`), so a walk
   * through a long log in windows never holds the whole log.
   */
  trustedSource(id: string): TrustedSource | undefined {
    const header = this.#header(id);
    if (header === undefined) return this.#asWhole().trustedSource(id);
    for (const segment of this.#manifest.segments) verifySegmentSync(this.#store, segment);
    return { header, source: this.#source(id, true) };
  }

  storedLog(id: string): StoredLog {
    return this.#asWhole().storedLog(id);
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

  /** The manifest's header as the store sees it (without `segments`), when it is current and names `id`. */
  #header(id: string): SessionHeader | undefined {
    const { segments: _segments, ...fields } = this.#manifest.header;
    if (fields.format !== 'dsh-session' || fields.version !== CURRENT_FORMAT_VERSION || fields.id !== id) return undefined;
    return deepFreeze(fields as SessionHeader);
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
  #source(id: string, bounded = false): EventSource {
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
      piece.source = verifiedLinesSource(id, bytes, ends, piece.first);
      return piece.source;
    };
    const length = this.#length;
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

  /** The whole log as one verified buffer (every segment read): what decoding every event needs. */
  #asWhole(): VerifiedJsonlLog {
    if (this.#whole !== undefined) return this.#whole;
    const parts: Buffer[] = [headerLineWithoutSegments(this.#manifest)];
    for (const segment of this.#manifest.segments) parts.push(readSegmentSync(this.#store, segment));
    parts.push(this.#file.subarray(this.#manifest.headerEnd));
    this.#whole = new VerifiedJsonlLog(Buffer.concat(parts));
    return this.#whole;
  }
}
