import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAIModel } from 'dsh-agent';
import { createMemoryStore } from 'dsh-session';
import { startModelServer, type ModelServer } from '@dsh/test-utils';
import { createHost, type Host } from 'dsh-host';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const chunk = (delta: object, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`;

/** A host whose model streams "Hello" + " there." with reasoning first, from a local Chat Completions server. */
async function streamingHost(): Promise<{ host: Host; server: ModelServer }> {
  const server = await startModelServer(() => ({
    chunks: [
      chunk({ role: 'assistant', content: null, reasoning_content: '' }),
      chunk({ content: null, reasoning_content: 'Greet.' }),
      chunk({ content: 'Hello' }),
      chunk({ content: ' there.' }),
      chunk({}, 'stop'),
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
    const events = frames.filter((frame) => frame.event === undefined).map((frame) => JSON.parse(frame.data) as { seq: number; type: string });
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
