/**
 * @module `SessionSink`: where a Session makes its batches durable (a new log's first write, or a held writer).
 */
import type { SessionEvent } from 'dsh-codec';
import type { ResumePoint } from '../fast-backend.js';

/**
 * Where a Session makes its events durable. `write` persists `batch` (the events from seq
 * `expectedNextSeq` on) and resolves once they are durable; `log()` returns the Session's whole log, to
 * be called synchronously only by a sink that rewrites a file and needs the events before the batch
 * (it decodes a fork child's inherited prefix, which a creating sink has as records already).
 */
export interface SessionSink {
  write(batch: readonly SessionEvent[], expectedNextSeq: number, log: () => readonly SessionEvent[]): Promise<void>;
  /** Gives up the single-writer lease; called once, after the last write. */
  release(): Promise<void>;
  /** Optional: after a clean release, what its writer knew of the log (`SessionStore.reopen` takes it up). */
  resumePoint?(): ResumePoint | undefined;
}
