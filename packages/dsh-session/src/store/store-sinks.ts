/**
 * @module The two ways a store's Session reaches its backend: a new session (or fork child) through the
 * writer its atomic create returned, and a resumed session through the writer it acquired.
 */
import type { SessionHeader } from 'dsh-codec';
import type { FastWriter } from '../fast-backend.js';
import type { SessionSink } from '../session/session-sink.js';

/**
 * The sink of a new session or fork child. The store creates the log with the whole checked seed in
 * one atomic `create` before it hands the Session out, then gives this sink the writer that create
 * returned (`hold`); every later batch appends through it. Nothing is written before `hold`.
 */
export function createdSink(onRelease: () => void): SessionSink & { hold(writer: FastWriter): void } {
  let writer: FastWriter | undefined;
  return {
    hold(created) {
      writer = created;
    },
    async write(batch, expectedNextSeq) {
      // The Session counts its whole seed as durable: it writes only what was appended after the create.
      if (writer === undefined) throw new Error(`No log to append to yet: seq ${expectedNextSeq} came before the create.`);
      return writer.append(expectedNextSeq, batch);
    },
    async release() {
      onRelease();
      await writer?.release();
    },
    resumePoint: () => writer?.resumePoint?.(),
  };
}

/**
 * A sink over an acquired writer. With `transition` (a log stored in an older format), the first
 * write replaces the whole log with the current (V7) header, the stored events and the batch, atomically:
 * never current records under an older header.
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
    resumePoint: () => writer.resumePoint?.(),
  };
}
