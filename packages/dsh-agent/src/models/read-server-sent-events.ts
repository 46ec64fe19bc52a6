/**
 * @module models/read-server-sent-events
 * `readServerSentEvents`: a `text/event-stream` body read event by event under an idle timer, for
 * both HTTP adapters.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { ModelHttpBody } from './post-model-request.js';

/** One server-sent event: its `event:` name (undefined for plain `data:` frames) and its data. */
export type ServerSentEvent = { event: string | undefined; data: string };

/**
 * Reads a `text/event-stream` body to its end, calling `onEvent` for each event in order and
 * restarting the idle timer on every chunk. `onEvent` returning `'stop'` ends the read early
 * (a terminal event such as `[DONE]`); whatever it throws rejects the read.
 */
export async function readServerSentEvents(body: ModelHttpBody, onEvent: (event: ServerSentEvent) => 'stop' | undefined): Promise<void> {
  const stream = body.response.body as ReadableStream<Uint8Array> | null;
  if (stream === null) return;
  const queued: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => queued.push(event) });
  const decoder = new TextDecoder();
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      body.touch();
      parser.feed(done ? decoder.decode() : decoder.decode(value, { stream: true }));
      // Events are handled outside the parser's callback, so a throw cannot leave it half-fed.
      for (const event of queued.splice(0)) {
        if (onEvent({ event: event.event, data: event.data }) === 'stop') return;
      }
      if (done) return;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
