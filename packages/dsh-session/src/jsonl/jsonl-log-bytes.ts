/** The bytes of JSONL logs: encoding events and headers as lines, and finding lines in a file's bytes. */
import { CURRENT_FORMAT_VERSION, encodeHeader, serializeEvent, type SessionEvent, type SessionHeader } from 'dsh-codec';

/** The line feed that ends every line dsh writes. */
export const NEWLINE = 0x0a;
/** A carriage return: a log holding one has legacy line endings (rewritten in LF, never copied). */
export const CARRIAGE_RETURN = 0x0d;

/** The JSONL lines of events the store hands over: every one was validated by its Session (or the codec). */
export function serializeEvents(events: readonly SessionEvent[]): string {
  let text = '';
  for (const event of events) text += serializeEvent(event);
  return text;
}

/** A whole log's bytes: the header line, then one line per event. */
export function encodeLog(header: SessionHeader, events: readonly SessionEvent[]): Buffer {
  return Buffer.from(encodeHeader(header) + serializeEvents(events), 'utf8');
}

/** How many LF bytes `bytes` holds. */
export function countNewlines(bytes: Buffer): number {
  let count = 0;
  for (let newline = bytes.indexOf(NEWLINE); newline !== -1; newline = bytes.indexOf(NEWLINE, newline + 1)) count += 1;
  return count;
}

/**
 * The first format version whose event lines are current-format records: every version from it up
 * to the current one changed only the header, so such a log's event lines may be copied as they are.
 */
export const CURRENT_RECORDS_SINCE = 4;

/** Whether a log of format `version` holds current-format records after its header line. */
export function holdsCurrentRecords(version: unknown): boolean {
  return typeof version === 'number' && version >= CURRENT_RECORDS_SINCE && version <= CURRENT_FORMAT_VERSION;
}

/** Whether the first line of `bytes` (ending at `end`) is the header of a log whose event lines are current-format records. */
export function startsWithCurrentRecordsHeader(bytes: Buffer, end: number): boolean {
  try {
    const header = JSON.parse(bytes.toString('utf8', 0, end)) as unknown;
    const version = typeof header === 'object' && header !== null ? (header as { version?: unknown }).version : undefined;
    return holdsCurrentRecords(version);
  } catch {
    return false;
  }
}

/** Byte offset where 1-based `line` starts. */
export function lineOffset(bytes: Uint8Array, line: number): number {
  let seen = 1;
  for (let index = 0; index < bytes.length && seen < line; index += 1) {
    if (bytes[index] === NEWLINE) {
      seen += 1;
      if (seen === line) return index + 1;
    }
  }
  return line <= 1 ? 0 : bytes.length;
}
