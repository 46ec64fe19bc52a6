/**
 * Fetch wrappers for the dsh HTTP API (SPEC §10). A non-2xx answer becomes an `ApiError`
 * carrying the API's `{ error: { code, message } }`.
 */
import type { ForkResult, Observation, SessionRow, WireDelta, WireEvent, WorktreeInfo } from './wire.js';

/** An error answer of the API: its code (e.g. `INVALID_CUT`) and message. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** The bearer token the serving demo wrote into the page (`<meta name="dsh-token">`), if it requires one. */
function authorization(): Record<string, string> {
  const token = typeof document === 'undefined' ? null : document.querySelector('meta[name="dsh-token"]')?.getAttribute('content');
  return token === null || token === undefined || token === '' ? {} : { authorization: `Bearer ${token}` };
}

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(path, {
    method,
    headers: { ...authorization(), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  const json: unknown = text === '' ? undefined : JSON.parse(text);
  if (!response.ok) {
    const error = (json as { error?: { code?: string; message?: string } } | undefined)?.error;
    throw new ApiError(error?.code ?? `HTTP_${response.status}`, error?.message ?? response.statusText, response.status);
  }
  return json as T;
}

const at = (id: string) => `/api/sessions/${encodeURIComponent(id)}`;

/** What `POST /api/import` answers: the format read, its warnings, and the stored sessions (main line first). */
export type ImportAnswer = {
  format: string;
  warnings: string[];
  /** `kept`: already stored by an earlier import of this file that was cut short. */
  sessions: { id: string; parentSession: string | null; forkCut: number | null; events: number; kept?: true }[];
};

/** The HTTP calls the page makes. */
export const api = {
  list: async (): Promise<SessionRow[]> => {
    const body = await call<SessionRow[] | { sessions: SessionRow[] }>('GET', '/api/sessions');
    return Array.isArray(body) ? body : body.sessions;
  },
  create: (title?: string) => call<{ sessionId: string }>('POST', '/api/sessions', title === undefined ? {} : { title }),
  observe: (id: string) => call<Observation>('GET', at(id)),
  /** Makes the session live in the host; a crashed log is repaired first (interrupted closers). */
  open: (id: string) => call<Observation>('POST', `${at(id)}/open`),
  send: (id: string, text: string) => call<{ inputId: string }>('POST', `${at(id)}/messages`, { text }),
  /** `worktree`: the child gets its own directory holding the files at the cut (SPEC §23). */
  fork: (id: string, options: { atSeq?: number; title?: string; worktree?: boolean }) =>
    call<ForkResult>('POST', `${at(id)}/fork`, options),
  /** Forks one peer per prompt at one cut of the baseline and starts each prompt (SPEC §20); `worktree`: each in its own directory. */
  peers: (id: string, options: { atSeq?: number; worktree?: boolean; peers: { prompt: string; title?: string }[] }) =>
    call<{ baseline: string; cut: number; peers: { sessionId: string; title: string; worktree?: WorktreeInfo }[] }>(
      'POST',
      `${at(id)}/peers`,
      options,
    ),
  rename: (id: string, title: string) => call<unknown>('PATCH', at(id), { title }),
  /** Deletes a stored session (409 `SESSION_BUSY` while it runs a turn or another process holds it). */
  delete: (id: string) => call<{ sessionId: string; deleted: true }>('DELETE', at(id)),
  cancel: (id: string) => call<unknown>('POST', `${at(id)}/cancel`),
  /** Imports a transcript file's text (the demo's own route; the host has none). */
  importTranscript: (text: string) => call<ImportAnswer>('POST', '/api/import', { text }),
  compact: (id: string) =>
    call<{ compacted: boolean; replaced?: { start: number; end: number }; startSeq?: number; endSeq?: number }>(
      'POST',
      `${at(id)}/compact`,
    ),
};

/**
 * Follows `GET /api/sessions/:id/events?from=SEQ` (server-sent events, one log event per message,
 * `id` = its seq; `event: delta` frames, the streamed text of a running step, go to `onDelta`).
 * Reconnects with `Last-Event-ID` after a dropped stream; the returned function stops it.
 */
export function followEvents(
  id: string,
  from: number,
  onEvent: (event: WireEvent) => void,
  onDelta?: (delta: WireDelta) => void,
): () => void {
  const controller = new AbortController();
  let lastId: string | undefined;
  let retryMs = 500;

  const connect = async (): Promise<void> => {
    const response = await fetch(`${at(id)}/events?from=${from}`, {
      headers: { ...authorization(), accept: 'text/event-stream', ...(lastId === undefined ? {} : { 'last-event-id': lastId }) },
      signal: controller.signal,
    });
    if (!response.ok || !response.body) throw new Error(`event stream answered ${response.status}`);
    retryMs = 500;
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    let data: string[] = [];
    let eventId: string | undefined;
    let eventName: string | undefined;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      let newline: number;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, newline).replace(/\r$/, '');
        buffer = buffer.slice(newline + 1);
        if (line === '') {
          // Named frames (`event: delta`, ephemeral streaming text) are not log events.
          if (data.length > 0 && eventName === 'delta') {
            onDelta?.(JSON.parse(data.join('\n')) as WireDelta);
          } else if (data.length > 0 && eventName === undefined) {
            const parsed = JSON.parse(data.join('\n')) as WireEvent;
            if (eventId !== undefined) lastId = eventId;
            if (typeof parsed.seq === 'number') from = parsed.seq + 1;
            onEvent(parsed);
          }
          data = [];
          eventId = undefined;
          eventName = undefined;
        } else if (line.startsWith('data:')) {
          data.push(line.slice(5).replace(/^ /, ''));
        } else if (line.startsWith('event:')) {
          eventName = line.slice(6).trim();
        } else if (line.startsWith('id:')) {
          eventId = line.slice(3).trim();
        }
      }
    }
  };

  const stopped = (): boolean => controller.signal.aborted;
  const loop = async (): Promise<void> => {
    for (;;) {
      try {
        await connect();
      } catch {
        // dropped or refused: retry below unless stopped
      }
      if (stopped()) return;
      await new Promise((resolve) => setTimeout(resolve, retryMs));
      retryMs = Math.min(retryMs * 2, 5000);
    }
  };
  void loop();
  return () => {
    controller.abort();
  };
}
