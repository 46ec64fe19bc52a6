import type { SessionEvent } from 'dsh-codec';
import type { Host } from './host-types.js';

function sseFrame(event: SessionEvent): string {
  return `id: ${event.seq}\ndata: ${JSON.stringify(event)}\n\n`;
}

/**
 * The `text/event-stream` response of `GET /api/sessions/:id/events`: every event from `from` (stored
 * first, then live, each once, `id` = seq), a comment every `heartbeatMs`, until the client goes away.
 * @internal
 */
export function streamEvents(host: Host, sessionId: string, from: number, heartbeatMs: number): Response {
  const encoder = new TextEncoder();
  let cancelled = false;
  let stop = (): void => undefined;
  const body = new ReadableStream<Uint8Array>({
    start: async (controller) => {
      const send = (text: string): void => {
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          stop();
        }
      };
      send(': dsh event stream\n\n');
      const watch = await host.watch(sessionId, from, (event) => {
        send(sseFrame(event));
      });
      if (cancelled) {
        watch.close();
        return;
      }
      const timer = setInterval(() => {
        send(': keep-alive\n\n');
      }, heartbeatMs);
      timer.unref();
      stop = () => {
        clearInterval(timer);
        watch.close();
      };
    },
    cancel: () => {
      cancelled = true;
      stop();
    },
  });
  return new Response(body, {
    headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' },
  });
}
