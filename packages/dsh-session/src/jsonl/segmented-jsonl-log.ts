/**
 * @module `SegmentedJsonlLog`: a V7 manifest whose verified stamp vouches for its file, read lazily
 * (docs/decisions/2026-12-07-jsonl-forks-by-reference.md). Its events are the named segments' lines,
 * then the file's own lines; an observation reads a segment only when one of its events is read (the
 * cut, the latest turn, a title or config searched from the end), each segment hashed against its
 * digest the first time this process reads it. A fork names the segments before its cut and cuts the
 * one holding it — reading that one only (`referenced`). Decoding every event (`open`, `inspect`)
 * reads them all.
 */
import { CURRENT_FORMAT_VERSION, type SessionHeader } from 'dsh-codec';
import { closeOpenTail } from '../close-open-tail.js';
import { deepFreeze } from '../deep-freeze.js';
import type { DecodedLog, ObservedLog, StoredLines, TrustedSource } from '../fast-backend.js';
import type { StoredLog } from '../session-backend.js';
import { latestTurnOf } from '../sources/event-source.js';
import { VerifiedJsonlLog } from './verified-jsonl-log.js';
import { headerLineWithoutSegments, type Manifest } from './jsonl-manifest.js';
import { readSegmentSync } from './segments/read-segment-sync.js';
import type { SegmentStore } from './segments/segment-store.js';
import { verifySegmentSync } from './segments/verify-segment-sync.js';
import { SegmentWindow, type ReferencedLines } from './segment-window.js';

/** A verified manifest's log: segments read only where an event is read. */
export class SegmentedJsonlLog implements StoredLines {
  readonly #store: SegmentStore;
  readonly #file: Buffer;
  readonly #manifest: Manifest;
  readonly #window: SegmentWindow;
  #whole: VerifiedJsonlLog | undefined;

  constructor(store: SegmentStore, file: Buffer, manifest: Manifest) {
    this.#store = store;
    this.#file = file;
    this.#manifest = manifest;
    this.#window = new SegmentWindow(store, file, manifest);
  }

  /** Only the header is decoded here, and the latest turn (to learn whether it needs repair): the segments holding it are read. */
  observe(id: string): ObservedLog {
    const header = this.#header(id);
    if (header === undefined) return this.#asWhole().observe(id);
    const source = this.#window.source(id);
    const needsRepair = closeOpenTail(latestTurnOf(source, this.#window.length), 'interrupted').length > 0;
    return { header, formatVersion: CURRENT_FORMAT_VERSION, needsRepair, source, validated: this.#window.length };
  }

  decode(id: string): DecodedLog {
    return this.#asWhole().decode(id);
  }

  /**
   * The events as `open` takes them (SPEC §24: resume holds what the model needs): every segment is
   * checked against its digest here, hashed in bounded pieces and not kept; the events are then read
   * by position, holding at most one segment's bytes at a time (`SegmentWindow.source`'s `bounded`), so a walk
   * through a long log in windows never holds the whole log.
   */
  trustedSource(id: string): TrustedSource | undefined {
    const header = this.#header(id);
    if (header === undefined) return this.#asWhole().trustedSource(id);
    for (const segment of this.#manifest.segments) verifySegmentSync(this.#store, segment);
    return { header, source: this.#window.source(id, true) };
  }

  storedLog(id: string): StoredLog {
    return this.#asWhole().storedLog(id);
  }

  /** The first `count` events as a child names them (`SegmentWindow.referenced`). */
  referenced(id: string, count: number): ReferencedLines {
    return this.#window.referenced(id, count);
  }

  /** The manifest's header as the store sees it (without `segments`), when it is current and names `id`. */
  #header(id: string): SessionHeader | undefined {
    const { segments: _segments, ...fields } = this.#manifest.header;
    if (fields.format !== 'dsh-session' || fields.version !== CURRENT_FORMAT_VERSION || fields.id !== id) return undefined;
    return deepFreeze(fields as SessionHeader);
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
