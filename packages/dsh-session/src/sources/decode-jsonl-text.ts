/**
 * @module JSONL text of any format version decoded as the current version, as the store takes it from
 * a backend: codec failures become `SessionError`s, a torn tail longer than one unfinished line and a
 * header naming another session are `CORRUPT`.
 */
import { CodecError, CURRENT_FORMAT_VERSION, decodeJsonl, type SessionHeader } from 'dsh-codec';
import { checkTornTail } from './check-torn-tail.js';
import type { DecodedLog } from '../fast-backend.js';
import { SessionError } from '../session-error.js';

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
 * Decodes (and migrates) the JSONL text of session `id`; the codec validated every event it returns.
 * The events are fresh: the caller freezes whatever it keeps or hands out (a Session freezes its log;
 * `inspect` freezes its result). Never writes.
 */
export function decodeJsonlText(id: string, text: string): DecodedLog {
  let decoded: DecodedLog;
  try {
    const { header, events, sourceVersion, tornTail, lineEndings } = decodeJsonl(text, { sessionId: id });
    decoded = {
      header,
      events,
      sourceVersion,
      tornTail,
      lineEndings,
      rewrite: sourceVersion !== CURRENT_FORMAT_VERSION || lineEndings !== undefined,
      validated: events.length,
    };
  } catch (error) {
    if (!CodecError.is(error)) throw error;
    const where = error.line === undefined ? '' : ` (line ${error.line})`;
    throw new SessionError(error.code, `Cannot read session ${id}${where}: ${error.message}`, { sessionId: id, cause: error });
  }
  if (decoded.tornTail !== undefined) checkTornTail(id, text, decoded.tornTail);
  assertHeaderNames(id, decoded.header);
  return decoded;
}
