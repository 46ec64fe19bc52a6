/**
 * @module The `text/event-stream` body of `GET /api/sessions/:id/events`, with the memory it may
 * hold for a client bounded (SPEC §22). Frames leave a queue only when the consumer pulls: through
 * `serveHost`, hono's Node server pulls again only once the socket has drained, so what a client
 * has not read is either in this queue or in the Node response's own buffer — both are counted.
 */
import type { Context } from 'hono';
import type { SessionEvent } from 'dsh-codec';
import type { Host } from '../host-types.js';
import { nodeResponseOf } from './node-response-of.js';
import type { StreamSlot } from './stream-slots.js';

/** How a stream paces itself: the heartbeat interval and the bytes it may hold for a client that does not read. */
export type StreamLimits = { heartbeatMs: number; maxBufferedBytes: number };

/** A frame waiting for the client: a replayed event (formatted when pulled) or live text, counted. */
type Pending = { replayed: SessionEvent } | { text: string; bytes: number };

/** Frames are joined into chunks of about this size, so a replay is not one socket write per event. */
const CHUNK_BYTES = 64 * 1024;

const eventFrame = (event: SessionEvent): string => `id: ${String(event.seq)}\ndata: ${JSON.stringify(event)}\n\n`;

/**
 * Streams every event from `from` (stored first, then live, each once, `id` = seq) and, while a
 * response streams, ephemeral `event: delta` frames `{ turn, step, text?, reasoning? }` (no id:
 * they are never persisted, so a reconnect does not replay them); a comment every `heartbeatMs`.
 * The stored events at `from` are formatted as the client reads them; every frame produced after
 * that is counted, and once more than `maxBufferedBytes` wait for the client the stream is closed
 * (the socket destroyed when served by Node) so the client reconnects with `Last-Event-ID`; so is
 * the stream holding the most when all the app's streams together pass their bound (`slot`).
 * The slot is released once when the stream ends, however it ends.
 * @internal
 */
export async function streamSessionEvents(
  context: Context,
  host: Host,
  sessionId: string,
  from: number,
  limits: StreamLimits,
  slot: StreamSlot,
): Promise<Response> {
  const outgoing = nodeResponseOf(context);
  const encoder = new TextEncoder();
  const queue: Pending[] = [];
  let head = 0;
  let queuedBytes = 0;
  let replaying = true;
  let ended = false;
  let wake: (() => void) | undefined;
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  const stops: (() => void)[] = [];

  const end = (): void => {
    if (ended) return;
    ended = true;
    queue.length = 0;
    queuedBytes = 0;
    for (const stop of stops.splice(0)) stop();
    slot.release();
    wake?.();
  };
  // Cut off: the client reconnects with `Last-Event-ID`. A stalled socket would hold its buffer
  // until it times out, so it is dropped; in-process, the body ends.
  const cutOff = (): void => {
    end();
    if (outgoing !== undefined) outgoing.destroy();
    else closeQuietly(controller);
  };
  // Read through a function: `slot.changed()` may end this stream, which narrowing cannot see.
  const isEnded = (): boolean => ended;
  // What this client has not read: the frames queued here and what Node's response still holds.
  const held = (): number => queuedBytes + (outgoing?.writableLength ?? 0);
  slot.attach({ held, close: cutOff });
  const push = (pending: Pending): void => {
    if (ended) return;
    queue.push(pending);
    if ('bytes' in pending) {
      queuedBytes += pending.bytes;
      if (held() > limits.maxBufferedBytes) {
        cutOff();
        return;
      }
      // All streams together are bounded too: this may close the stream holding the most.
      slot.changed();
      if (isEnded()) return;
    }
    wake?.();
  };
  const pushText = (text: string): void => {
    push({ text, bytes: Buffer.byteLength(text) });
  };

  pushText(': dsh event stream\n\n');
  try {
    const watch = await host.watch(sessionId, from, (event) => {
      if (replaying) push({ replayed: event });
      else pushText(eventFrame(event));
    });
    stops.push(() => {
      watch.close();
    });
    replaying = false;
    const deltas = await host.watchDeltas(sessionId, (delta) => {
      pushText(`event: delta\ndata: ${JSON.stringify(delta)}\n\n`);
    });
    stops.push(() => {
      deltas.close();
    });
  } catch (error) {
    end();
    throw error;
  }
  const timer = setInterval(() => {
    // A heartbeat only keeps an idle stream open; one that has frames waiting needs none.
    if (head === queue.length) pushText(': keep-alive\n\n');
  }, limits.heartbeatMs);
  timer.unref();
  stops.push(() => {
    clearInterval(timer);
  });

  const body = new ReadableStream<Uint8Array>(
    {
      start(streamController) {
        controller = streamController;
      },
      async pull(streamController) {
        while (head === queue.length && !ended) {
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
          wake = undefined;
        }
        if (ended) {
          closeQuietly(streamController);
          return;
        }
        let chunk = '';
        while (head < queue.length && chunk.length < CHUNK_BYTES) {
          const pending = queue[head] as Pending;
          head += 1;
          if ('bytes' in pending) {
            chunk += pending.text;
            queuedBytes -= pending.bytes;
          } else {
            chunk += eventFrame(pending.replayed);
          }
        }
        if (head > 1024 && head * 2 > queue.length) {
          queue.splice(0, head);
          head = 0;
        }
        streamController.enqueue(encoder.encode(chunk));
        slot.changed();
      },
      cancel() {
        end();
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(body, {
    status: 200,
    // Chunked from the start, so hono's Node server sends the headers without waiting for a body to end.
    headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive', 'transfer-encoding': 'chunked' },
  });
}

function closeQuietly(controller: ReadableStreamDefaultController<Uint8Array> | undefined): void {
  try {
    controller?.close();
  } catch {
    // Already closed or cancelled by the consumer.
  }
}
