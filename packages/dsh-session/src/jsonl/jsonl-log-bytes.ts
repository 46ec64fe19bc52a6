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

/** Whether the first line of `bytes` (ending at `end`) is a V4 or V5 header, so the lines after it are V5 events (V4's are unchanged in V5). */
export function startsWithV4Header(bytes: Buffer, end: number): boolean {
  try {
    const header = JSON.parse(bytes.toString('utf8', 0, end)) as unknown;
    const version = typeof header === 'object' && header !== null ? (header as { version?: unknown }).version : undefined;
    return version === 4 || version === CURRENT_FORMAT_VERSION;
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
