/**
 * @module JSONL bytes that a writer of this backend validated and stamped and that are unchanged since
 * (`jsonl-verified-stamp.ts`): current-format lines, LF-terminated, no torn tail. An observation
 * decodes only the header and the latest turn and reads the events line by line when someone reads
 * them; a fork child may copy the lines of its first events as they are. `open` takes them the same
 * way (`trustedSource`) and validates none.
 */
import { CURRENT_FORMAT_VERSION, type SessionHeader } from 'dsh-codec';
import { closeOpenTail } from '../close-open-tail.js';
import { deepFreeze } from '../deep-freeze.js';
import type { DecodedLog, ObservedLog, StoredLines, TrustedSource } from '../fast-backend.js';
import { LineEnds } from './line-ends.js';
import type { StoredLog } from '../session-backend.js';
import { latestTurnOf } from '../sources/event-source.js';
import { JsonlTextLog } from './jsonl-text-log.js';
import { verifiedLinesSource } from './verified-lines.js';

/** Verified JSONL bytes read from a backend; read as JSONL text when the header is not the current version. */
export class VerifiedJsonlLog implements StoredLines {
  readonly bytes: Buffer;
  /** The line ends of the bytes, once an observation read them as verified lines. */
  #ends: LineEnds | undefined;
  /** The bytes as text, once they were read as such. */
  #text: JsonlTextLog | undefined;

  constructor(bytes: Buffer) {
    this.bytes = bytes;
  }

  /**
   * Every event, each line parsed once and none validated again (the stamp vouches for them: what
   * `open` does); a header that is not the current version is decoded as JSONL text, in full.
   */
  decode(id: string): DecodedLog {
    const { bytes } = this;
    const ends = new LineEnds();
    ends.scan(bytes, 0);
    const header = ends.length === 0 ? undefined : currentHeader(id, bytes, ends);
    if (header === undefined) return this.#asText().decode(id);
    const source = verifiedLinesSource(id, bytes, ends);
    const events = source.slice(source.length);
    this.#ends = ends;
    return {
      header,
      events,
      sourceVersion: CURRENT_FORMAT_VERSION,
      tornTail: undefined,
      lineEndings: undefined,
      rewrite: false,
      validated: events.length,
    };
  }

  /** The events as `open` takes them, nothing decoded but the header: undefined when the header is not the current version. */
  trustedSource(id: string): TrustedSource | undefined {
    const { bytes } = this;
    const ends = new LineEnds();
    ends.scan(bytes, 0);
    const header = ends.length === 0 ? undefined : currentHeader(id, bytes, ends);
    if (header === undefined) return undefined;
    this.#ends = ends;
    return { header, source: verifiedLinesSource(id, bytes, ends) };
  }

  storedLog(id: string): StoredLog {
    return this.#asText().storedLog(id);
  }

  /**
   * Only the header is decoded here, and the latest turn (to learn whether it needs repair); the
   * events are read line by line when someone reads them. A header that is not the current version
   * is decoded with the rest, as JSONL text.
   */
  observe(id: string): ObservedLog {
    const { bytes } = this;
    const ends = new LineEnds();
    ends.scan(bytes, 0);
    const header = ends.length === 0 ? undefined : currentHeader(id, bytes, ends);
    if (header === undefined) return this.#asText().observe(id);
    const source = verifiedLinesSource(id, bytes, ends);
    const count = source.length;
    const needsRepair = closeOpenTail(latestTurnOf(source, count), 'interrupted').length > 0;
    this.#ends = ends;
    return { header, formatVersion: CURRENT_FORMAT_VERSION, needsRepair, source, validated: count };
  }

  /** The JSONL lines of the first `count` events, as bytes a fork child may copy (see `JsonlTextLog.currentLines`). */
  currentLines(count: number): Buffer | undefined {
    const ends = this.#ends;
    if (ends !== undefined) return this.bytes.subarray(ends.at(0), ends.at(count));
    return this.#text?.currentLines(count);
  }

  #asText(): JsonlTextLog {
    this.#text ??= new JsonlTextLog(this.bytes.toString('utf8'));
    return this.#text;
  }
}

/** The header line of verified bytes, frozen, when it is a current-version header naming `id`; else undefined. */
function currentHeader(id: string, bytes: Buffer, ends: LineEnds): SessionHeader | undefined {
  // The stamp vouches for the header line as for the rest: validated when it was written.
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8', 0, ends.at(0) - 1));
  } catch {
    return undefined;
  }
  const fields = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as Partial<Record<keyof SessionHeader, unknown>>;
  if (fields.format !== 'dsh-session' || fields.version !== CURRENT_FORMAT_VERSION || fields.id !== id) return undefined;
  return deepFreeze(parsed as SessionHeader);
}
