import type { Context } from 'hono';
import { streamSSE, type SSEMessage } from 'hono/streaming';
import type { Host } from './host-types.js';

/**
 * The `text/event-stream` response of `GET /api/sessions/:id/events`, written with hono's
 * `streamSSE`: every event from `from` (stored first, then live, each once, `id` = seq) and, while
 * a response streams, ephemeral `event: delta` frames `{ turn, step, text?, reasoning? }` (no id:
 * they are never persisted, so a reconnect does not replay them); a comment every `heartbeatMs`.
 * @internal
 */
export function streamSessionEvents(context: Context, host: Host, sessionId: string, from: number, heartbeatMs: number): Response {
  return streamSSE(context, async (stream) => {
    let closed = false;
    const aborted = new Promise<void>((resolve) => {
      stream.onAbort(() => {
        closed = true;
        resolve();
      });
    });
    // One chain keeps frames in the order they happened, whatever the socket's pace.
    let chain = Promise.resolve();
    const enqueue = (write: () => Promise<unknown>): void => {
      chain = chain
        .then(async () => {
          if (!closed) await write();
        })
        .catch(() => {
          closed = true;
        });
    };
    const send = (message: SSEMessage): void => {
      enqueue(() => stream.writeSSE(message));
    };
    enqueue(() => stream.write(': dsh event stream\n\n'));
    const watch = await host.watch(sessionId, from, (event) => {
      send({ id: String(event.seq), data: JSON.stringify(event) });
    });
    const deltas = await host.watchDeltas(sessionId, (delta) => {
      send({ event: 'delta', data: JSON.stringify(delta) });
    });
    const timer = setInterval(() => {
      enqueue(() => stream.write(': keep-alive\n\n'));
    }, heartbeatMs);
    timer.unref();
    try {
      await aborted;
    } finally {
      clearInterval(timer);
      watch.close();
      deltas.close();
    }
  });
}
