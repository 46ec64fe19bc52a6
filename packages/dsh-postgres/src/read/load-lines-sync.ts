/**
 * @module `loadLinesSync`: the event lines of a segment chain read synchronously — for a log the store
 * read only a window of (a fork by id), when someone reads an event outside it (`Session.events` is
 * synchronous). A worker thread with its own connection runs the read; this thread waits in
 * `Atomics.wait` and takes the lines with `receiveMessageOnPort`. It blocks the event loop for the
 * transfer, which a whole read would have cost before the fork returned.
 */
import { createRequire } from 'node:module';
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { SessionError } from 'dsh-session';

/** How a worker connects: what a store that opened its own pool was opened with (structured-cloneable), the rest from `PG*`. @internal */
export type SyncConnection = { readonly connectionString?: string; readonly options?: string };

/** What the worker is asked: the chain from `segment` up to `count`, with the statement text. */
type LoadRequest = { text: string; segment: string; count: number };

/** What it answers: every line of seqs `0 .. count - 1`, sealed and in place, or why not. */
type LoadAnswer = { lines: string[] } | { error: string; missing?: boolean };

/** How long a load may take before it is given up (`STORAGE_ERROR`); a 100,000-event log takes well under a second. */
const LOAD_TIMEOUT_MS = 120_000;

// Plain CommonJS run by the worker (`eval`): the same source from this package's `src/` (tsx) and `dist/`.
const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const { port, flag, connection, request } = workerData;
(async () => {
  let answer;
  let client;
  try {
    const pg = require(workerData.pgPath);
    client = new pg.Client(connection);
    await client.connect();
    const { rows } = await client.query({ text: request.text, values: [request.segment, request.count], rowMode: 'array' });
    const lines = new Array(request.count);
    let placed = 0;
    let broken;
    for (const [seq, body, sealed] of rows) {
      if (sealed !== true || !body.startsWith('{"seq":' + seq + ',') || !body.endsWith('}\\n') || seq >= request.count) broken = seq;
      else if (lines[seq] === undefined) { lines[seq] = body; placed += 1; }
    }
    if (broken !== undefined) answer = { error: 'the row at seq ' + broken + ' is not the line dsh-postgres sealed' };
    else if (placed !== request.count) answer = { error: 'found ' + placed + ' of its ' + request.count + ' rows', missing: true };
    else answer = { lines };
  } catch (error) {
    answer = { error: error instanceof Error ? error.message : String(error) };
  } finally {
    if (client !== undefined) await client.end().catch(() => undefined);
    // Whatever happened, the waiting thread is answered (never left to its timeout).
    port.postMessage(answer ?? { error: 'the reading thread failed' });
    Atomics.store(flag, 0, 1);
    Atomics.notify(flag, 0);
  }
})();
`;

const PG_PATH = createRequire(import.meta.url).resolve('pg');

/**
 * The lines of seqs `0 .. count - 1` of the chain starting at `segment` (`text`: the statement, `$1`
 * the segment, `$2` the count), read on a worker's own connection while this thread waits.
 * `SESSION_NOT_FOUND` when rows are gone (a parent deleted and collected before a child referred to
 * it), `CORRUPT` for a row that lost its seal, `STORAGE_ERROR` for the server or a timeout. @internal
 */
export function loadLinesSync(connection: SyncConnection, target: string, sessionId: string, request: LoadRequest): string[] {
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const { port1, port2 } = new MessageChannel();
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { port: port2, flag, connection, request, pgPath: PG_PATH },
    transferList: [port2],
    stdout: true,
    stderr: true,
  });
  try {
    const waited = Atomics.wait(flag, 0, 0, LOAD_TIMEOUT_MS);
    const answer = receiveMessageOnPort(port1)?.message as LoadAnswer | undefined;
    if (answer !== undefined && 'lines' in answer) return answer.lines;
    const why = answer?.error ?? (waited === 'timed-out' ? `no answer within ${String(LOAD_TIMEOUT_MS)} ms` : 'the reading thread stopped');
    if (answer !== undefined && 'missing' in answer && answer.missing) {
      throw new SessionError(
        'SESSION_NOT_FOUND',
        `Cannot read the inherited events of ${sessionId}: expected ${String(request.count)} rows of segment ${request.segment}, ${why} (the session was deleted meanwhile).`,
        { sessionId },
      );
    }
    const code = answer?.error.startsWith('the row at') === true ? 'CORRUPT' : 'STORAGE_ERROR';
    throw new SessionError(code, `Cannot read the inherited events of ${sessionId} from PostgreSQL at ${target}: ${why}.`, { sessionId });
  } finally {
    port1.close();
    void worker.terminate();
  }
}
