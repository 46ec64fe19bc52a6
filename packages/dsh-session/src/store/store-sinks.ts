/**
 * The two ways a store's Session reaches its backend: a new session (or fork child) whose first write
 * creates it atomically, and a resumed session writing through the writer it acquired.
 */
import type { SessionHeader } from 'dsh-codec';
import type { FastBackend, FastWriter, InheritedRecords } from '../fast-backend.js';
import type { SessionSink } from '../session/session-sink.js';

/**
 * A sink whose first write creates the session with everything appended so far, in one atomic
 * `create`; a failed create poisons the sink so the Session can never create the id later. A fork
 * child's sink hands the backend its `inherited` prefix so it can be copied rather than encoded.
 */
export function creatingSink(
  backend: FastBackend,
  id: string,
  header: SessionHeader,
  onRelease: () => void,
  inherited?: InheritedRecords,
): SessionSink {
  let writer: FastWriter | undefined;
  let failed: Error | undefined;
  return {
    async write(batch, expectedNextSeq, log) {
      if (failed !== undefined) throw failed;
      if (writer !== undefined) return writer.append(expectedNextSeq, batch);
      // The first write of a new log is usually all of it after the inherited records: the batch itself, no second copy.
      const first = inherited?.count ?? 0;
      const events = expectedNextSeq === first ? batch : log().slice(first, expectedNextSeq + batch.length);
      try {
        writer = inherited === undefined ? await backend.create(id, header, events) : await backend.create(id, header, events, inherited);
      } catch (error) {
        failed = error as Error;
        throw error;
      }
    },
    async release() {
      onRelease();
      await writer?.release();
    },
  };
}

/**
 * A sink over an acquired writer. With `transition` (a log stored in an older format), the first
 * write replaces the whole log with the V5 header, the stored events and the batch, atomically:
 * never V5 records under an older header.
 */
export function resumingSink(writer: FastWriter, header: SessionHeader, transition: boolean, onRelease: () => void): SessionSink {
  let pendingTransition = transition;
  return {
    async write(batch, expectedNextSeq, log) {
      if (!pendingTransition) return writer.append(expectedNextSeq, batch);
      await writer.replace(header, log().slice(0, expectedNextSeq + batch.length));
      pendingTransition = false;
    },
    async release() {
      onRelease();
      await writer.release();
    },
  };
}
