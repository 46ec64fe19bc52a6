/**
 * @module A backend's stored log read as the current version, whichever read form the backend returned.
 */
import {
  CodecError,
  CURRENT_FORMAT_VERSION,
  decodeJsonl,
  type DecodedLog as CodecDecodedLog,
  type FormatVersion,
  type SessionEvent,
  type SessionHeader,
} from 'dsh-codec';
import { checkTornTail } from './check-torn-tail.js';
import { deepFreeze } from '../deep-freeze.js';
import type { StoredRead } from '../fast-backend.js';
import { SessionError } from '../session-error.js';
import { parseValidatedLines } from '../sources/validated-lines.js';

/**
 * A stored log read as the current version: its events (frozen when they are a backend's records),
 * the version it was written in, any torn tail, and `rewrite`: whether its first write must replace
 * the whole file (an older version, or lines not ending in LF) instead of appending to it.
 */
export type DecodedLog = {
  header: SessionHeader;
  events: readonly SessionEvent[];
  sourceVersion: FormatVersion;
  tornTail: { offset: number; line: number } | undefined;
  lineEndings: CodecDecodedLog['lineEndings'];
  rewrite: boolean;
};

/** `CORRUPT` unless the stored header of session `id` names it. */
export function assertHeaderNames(id: string, header: SessionHeader): void {
  if (header.id !== id) {
    throw new SessionError(
      'CORRUPT',
      `Cannot read session ${id}: expected its header to name ${JSON.stringify(id)}, received ${JSON.stringify(header.id)}.`,
      {
        sessionId: id,
      },
    );
  }
}

/**
 * Decodes (and migrates) a stored log. Codec failures become `SessionError`s with the codec's code and
 * the `CodecError` as cause; a header naming another session, or a torn tail that is more than one
 * unfinished line (`checkTornTail`), is `CORRUPT`. Never writes.
 */
export function decodeStored(id: string, stored: StoredRead): DecodedLog {
  let decoded: DecodedLog;
  if (stored.kind === 'records') {
    decoded = {
      header: stored.header,
      events: stored.events,
      sourceVersion: CURRENT_FORMAT_VERSION,
      tornTail: undefined,
      lineEndings: undefined,
      rewrite: false,
    };
  } else if (stored.kind === 'validated-lines') {
    // Parsed and frozen here, never validated again: the backend vouches for every line.
    const events = parseValidatedLines(id, stored.lines, stored.count);
    decoded = {
      header: stored.header,
      events,
      sourceVersion: CURRENT_FORMAT_VERSION,
      tornTail: undefined,
      lineEndings: undefined,
      rewrite: false,
    };
  } else {
    try {
      const text = stored.kind === 'jsonl' ? stored.text : stored.bytes.toString('utf8');
      const result = decodeJsonl(text, { sessionId: id });
      const { header, events, sourceVersion, tornTail, lineEndings } = result;
      decoded = {
        header,
        events,
        sourceVersion,
        tornTail,
        lineEndings,
        rewrite: sourceVersion !== CURRENT_FORMAT_VERSION || lineEndings !== undefined,
      };
    } catch (error) {
      if (!CodecError.is(error)) throw error;
      const where = error.line === undefined ? '' : ` (line ${error.line})`;
      throw new SessionError(error.code, `Cannot read session ${id}${where}: ${error.message}`, { sessionId: id, cause: error });
    }
  }
  if (decoded.tornTail !== undefined && (stored.kind === 'jsonl' || stored.kind === 'verified-jsonl')) {
    checkTornTail(id, stored.kind === 'jsonl' ? stored.text : stored.bytes.toString('utf8'), decoded.tornTail);
  }
  assertHeaderNames(id, decoded.header);
  // Records are shared with the backend: frozen (validated lines are frozen as parsed). Events fresh from JSONL belong to the caller, which
  // freezes whatever it keeps or hands out (a Session freezes its log; `inspect` freezes its result).
  if (stored.kind === 'records') for (const event of decoded.events) deepFreeze(event);
  return decoded;
}
