import type { SessionEvent } from 'dsh-codec';

/**
 * Where a Session makes its events durable. `write` persists `batch` (the events from seq
 * `expectedNextSeq` on) and resolves once they are durable; `log` is the Session's whole log, to be
 * read synchronously only (a sink that creates or rewrites a file needs the events before the batch).
 */
export interface SessionSink {
  write(batch: readonly SessionEvent[], expectedNextSeq: number, log: readonly SessionEvent[]): Promise<void>;
  /** Gives up the single-writer lease; called once, after the last write. */
  release(): Promise<void>;
}
