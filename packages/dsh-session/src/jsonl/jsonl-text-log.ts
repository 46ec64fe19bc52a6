/**
 * @module JSONL text of any format version (possibly with a torn final line) as a backend read it:
 * decoded and validated in full by the codec when the store reads it. Once decoded, a log whose event
 * lines are current records in LF can give a fork child the JSONL lines of its first events as bytes.
 */
import type { DecodedLog, ObservedLog, StoredLines } from '../fast-backend.js';
import { holdsCurrentRecords } from './jsonl-log-bytes.js';
import type { StoredLog } from '../session-backend.js';
import { decodeJsonlText } from '../sources/decode-jsonl-text.js';
import { observeDecoded } from '../sources/observe-decoded.js';

/**
 * The JSONL lines of the first `count` events of a log's text (after its header line); undefined
 * when it has fewer complete lines or any of them ends in CR.
 */
function leadingLines(text: string, count: number): Buffer | undefined {
  const start = text.indexOf('\n') + 1;
  if (start === 0) return undefined;
  let end = start;
  for (let line = 0; line < count; line++) {
    const newline = text.indexOf('\n', end);
    if (newline === -1) return undefined;
    end = newline + 1;
  }
  const lines = text.slice(start, end);
  if (lines.includes('\r')) return undefined;
  return Buffer.from(lines, 'utf8');
}

/** JSONL text read from a backend, decoded by the codec (every event validated). */
export class JsonlTextLog implements StoredLines {
  readonly text: string;
  /** Whether a decode found current records in LF (legacy line endings are re-encoded, never copied); undefined before one. */
  #copyable: boolean | undefined;

  constructor(text: string) {
    this.text = text;
  }

  decode(id: string): DecodedLog {
    const decoded = decodeJsonlText(id, this.text);
    this.#copyable = holdsCurrentRecords(decoded.sourceVersion) && decoded.lineEndings === undefined;
    return decoded;
  }

  observe(id: string): ObservedLog {
    return observeDecoded(this.decode(id));
  }

  storedLog(id: string): StoredLog {
    const { header, events } = this.decode(id);
    return { header, events };
  }

  /**
   * The JSONL lines of the first `count` events, as bytes a fork child may copy: only after this log
   * was decoded (so they were validated) and found to hold current records in LF; else undefined.
   */
  currentLines(count: number): Buffer | undefined {
    return this.#copyable === true ? leadingLines(this.text, count) : undefined;
  }
}
