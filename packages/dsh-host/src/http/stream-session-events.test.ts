import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAIModel, createScriptedModel } from 'dsh-agent';
import { createMemoryStore } from 'dsh-session';
import { chatCompletionChunk, type ModelServer, startModelServer } from '@dsh/test-utils';
import { createHost, type Host, type HttpAppOptions } from 'dsh-host';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A host whose model streams "Hello" + " there." with reasoning first, from a local Chat Completions server. */
async function streamingHost(): Promise<{ host: Host; server: ModelServer }> {
  const server = await startModelServer(() => ({
    chunks: [
      chatCompletionChunk({ role: 'assistant', content: null, reasoning_content: '' }),
      chatCompletionChunk({ content: null, reasoning_content: 'Greet.' }),
      chatCompletionChunk({ content: 'Hello' }),
      chatCompletionChunk({ content: ' there.' }),
      chatCompletionChunk({}, 'stop'),
      'data: [DONE]\n\n',
    ],
  }));
  const store = createMemoryStore();
  const host = createHost({ store, model: createOpenAIModel({ model: 'm', baseUrl: `${server.origin}/v1`, retry: { maxAttempts: 1 } }) });
  cleanups.push(async () => {
    await host.close();
    await store.close();
    await server.close();
  });
  return { host, server };
}

type Frame = { event?: string; id?: string; data: string };

async function readFrames(response: Response, until: (frames: Frame[]) => boolean): Promise<Frame[]> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const frames: Frame[] = [];
  let buffer = '';
  try {
    while (!until(frames)) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        const text = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = /^data: (.*)$/m.exec(text)?.[1];
        if (data === undefined) continue;
        const event = /^event: (.*)$/m.exec(text)?.[1];
        const id = /^id: (.*)$/m.exec(text)?.[1];
        frames.push({ data, ...(event === undefined ? {} : { event }), ...(id === undefined ? {} : { id }) });
      }
    }
  } finally {
    await reader.cancel();
  }
  return frames;
}

describe('GET /api/sessions/:id/events with live deltas', () => {
  it('publishes ephemeral `event: delta` frames while the answer streams, then the persisted events', async () => {
    const { host } = await streamingHost();
    const { sessionId } = await host.create();
    const response = await host.fetch(new Request(`http://dsh.test/api/sessions/${sessionId}/events?from=0`));
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    await host.send(sessionId, 'hi');
    const frames = await readFrames(response, (seen) => seen.some((frame) => frame.data.includes('"turn/end"')));
    const deltas = frames.filter((frame) => frame.event === 'delta');
    expect(deltas.map((frame) => JSON.parse(frame.data) as unknown)).toEqual([
      { turn: 1, step: 1, reasoning: 'Greet.' },
      { turn: 1, step: 1, text: 'Hello' },
      { turn: 1, step: 1, text: ' there.' },
    ]);
    expect(deltas.every((frame) => frame.id === undefined)).toBe(true);
    const events = frames
      .filter((frame) => frame.event === undefined)
      .map((frame) => JSON.parse(frame.data) as { seq: number; type: string });
    expect(events.map((event) => event.type)).toContain('assistant/message');
    // Every delta came before the assistant message that completes the response.
    const assistantAt = frames.findIndex((frame) => frame.data.includes('"assistant/message"'));
    expect(frames.findLastIndex((frame) => frame.event === 'delta')).toBeLessThan(assistantAt);
    const observed = await host.observe(sessionId);
    expect(JSON.stringify(observed.events)).not.toContain('"delta"');
    expect(observed.events.some((event) => event.type === 'assistant/message')).toBe(true);
  });

  it('stops forwarding deltas to a watcher once it closes', async () => {
    const { host } = await streamingHost();
    const { sessionId } = await host.create();
    const seen: unknown[] = [];
    const watch = await host.watchDeltas(sessionId, (delta) => seen.push(delta));
    await host.send(sessionId, 'one');
    await host.idle(sessionId);
    expect(seen).toHaveLength(3);
    watch.close();
    await host.send(sessionId, 'two');
    await host.idle(sessionId);
    expect(seen).toHaveLength(3);
  });
});

describe('host.query with onDelta', () => {
  it("hands the caller the turn's streaming pieces while it runs, and none after", async () => {
    const { host } = await streamingHost();
    const seen: unknown[] = [];
    const result = await host.query({ prompt: 'hi', onDelta: (delta) => seen.push(delta) });
    expect(result.result).toBe('Hello there.');
    expect(seen).toEqual([
      { turn: 1, step: 1, reasoning: 'Greet.' },
      { turn: 1, step: 1, text: 'Hello' },
      { turn: 1, step: 1, text: ' there.' },
    ]);
    await host.send(result.sessionId, 'again');
    await host.idle(result.sessionId);
    expect(seen).toHaveLength(3);
  });
});

/** A host with a scripted model and the given HTTP limits, answering "ok" to every message. */
function limitedHost(http: HttpAppOptions): Host {
  const store = createMemoryStore();
  const host = createHost({ store, model: createScriptedModel(Array.from({ length: 50 }, () => ({ text: 'ok' }))), http });
  cleanups.push(async () => {
    await host.close();
    await store.close();
  });
  return host;
}

const streamRequest = (id: string, headers: Record<string, string> = {}) =>
  new Request(`http://dsh.test/api/sessions/${id}/events`, { headers });

describe('bounded event streams (SPEC §22)', () => {
  it('answers one stream over maxStreams with 503 TOO_MANY_STREAMS and Retry-After, keeps every other route working, and frees a slot when a stream ends', async () => {
    const host = limitedHost({ maxStreams: 2 });
    const { sessionId } = await host.create();
    const open = [await host.fetch(streamRequest(sessionId)), await host.fetch(streamRequest(sessionId))];
    expect(open.map((response) => response.status)).toEqual([200, 200]);
    const refused = await host.fetch(streamRequest(sessionId));
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    const body = (await refused.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('TOO_MANY_STREAMS');
    expect(body.error.message).toContain('at most 2');
    expect((await host.fetch(new Request('http://dsh.test/api/sessions'))).status).toBe(200);
    expect((await host.fetch(new Request(`http://dsh.test/api/sessions/${sessionId}`))).status).toBe(200);
    // A refused stream for an unknown session must not leak a slot either.
    await open[0]!.body!.cancel();
    expect((await host.fetch(streamRequest('no-such-session'))).status).toBe(404);
    const again = await host.fetch(streamRequest(sessionId));
    expect(again.status).toBe(200);
    expect((await host.fetch(streamRequest(sessionId))).status).toBe(503);
    await again.body!.cancel();
    await open[1]!.body!.cancel();
  });

  it('closes a stream whose client reads nothing once more than maxBufferedBytes wait for it; a reconnect from Last-Event-ID gets the rest', async () => {
    const host = limitedHost({ maxBufferedBytes: 4096, maxStreams: 1 });
    const { sessionId } = await host.create();
    const stalled = await host.fetch(streamRequest(sessionId));
    expect(stalled.status).toBe(200);
    for (let index = 0; index < 4; index += 1) {
      await host.send(sessionId, `message ${String(index)} ${'x'.repeat(2000)}`);
      await host.idle(sessionId);
    }
    const lastSeq = (await host.observe(sessionId)).events.at(-1)!.seq;
    // The client starts reading only now: the stream ends before the last event (it was closed);
    // had it stayed open, the reader would get every event up to the last.
    const delivered = await readFrames(stalled, (frames) => frames.some((frame) => frame.id === String(lastSeq)));
    const ids = delivered.filter((frame) => frame.id !== undefined).map((frame) => Number(frame.id));
    expect(ids.at(-1) ?? -1).toBeLessThan(lastSeq);
    // Its slot was freed (maxStreams 1), and the reconnect continues where the client stopped.
    const resumed = await host.fetch(streamRequest(sessionId, { 'last-event-id': String(ids.at(-1) ?? -1) }));
    expect(resumed.status).toBe(200);
    const rest = await readFrames(resumed, (frames) => frames.some((frame) => frame.id === String(lastSeq)));
    const all = [...ids, ...rest.map((frame) => Number(frame.id))];
    expect(all).toEqual(Array.from({ length: lastSeq + 1 }, (_, seq) => seq));
  });

  it('replays stored events far beyond maxBufferedBytes to a client that reads them', async () => {
    const host = limitedHost({ maxBufferedBytes: 4096 });
    const { sessionId } = await host.create();
    for (let index = 0; index < 6; index += 1) {
      await host.send(sessionId, 'y'.repeat(3000));
      await host.idle(sessionId);
    }
    const lastSeq = (await host.observe(sessionId)).events.at(-1)!.seq;
    const frames = await readFrames(await host.fetch(streamRequest(sessionId)), (seen) =>
      seen.some((frame) => frame.id === String(lastSeq)),
    );
    expect(frames.map((frame) => Number(frame.id))).toEqual(Array.from({ length: lastSeq + 1 }, (_, seq) => seq));
  });

  it.each([{ maxStreams: 0 }, { maxStreams: 1.5 }, { maxBufferedBytes: -1 }])(
    'refuses %j: limits are positive integers (INVALID_OPTION)',
    async (http) => {
      await expect(limitedHost(http).fetch(new Request('http://dsh.test/api/sessions'))).rejects.toMatchObject({ code: 'INVALID_OPTION' });
    },
  );
});
