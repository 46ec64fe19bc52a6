import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryStore } from 'dsh-session';
import { Agent, AgentError, createAnthropicModel, createOpenAIModel, type ModelRequest } from 'dsh-agent';
import { startSilentServer, type SilentServer } from './__fixtures__/silent-server.js';

let server: SilentServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const request: ModelRequest = { messages: [{ id: 'u1', role: 'user', content: [{ type: 'text', text: 'hi' }] }], tools: [] };

// Attempts are counted where they start, at the client: with deadlines this small an attempt may end
// before its request reaches the server, so the server's count would depend on timing.
let attempts = 0;
const countingFetch: typeof globalThis.fetch = (input, init) => {
  attempts += 1;
  return globalThis.fetch(input, init);
};
afterEach(() => {
  attempts = 0;
});

async function failure(promise: Promise<unknown>): Promise<AgentError> {
  try {
    await promise;
  } catch (error) {
    if (AgentError.is(error)) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

describe('model requests are bounded as a whole, not only by silence', () => {
  it('a server that accepts and never sends headers fails MODEL_TIMEOUT after at most 2 attempts, whatever maxAttempts says', async () => {
    server = await startSilentServer('no-headers');
    const model = createOpenAIModel({
      model: 'm',
      fetch: countingFetch,
      baseUrl: server.baseUrl,
      headersTimeoutMs: 50,
      retry: { maxAttempts: 3, initialDelayMs: 1, maxDelayMs: 1 },
    });
    const error = await failure(model.complete(request));
    expect(error.code).toBe('MODEL_TIMEOUT');
    expect(error.message).toMatch(
      /sent no response within 0\.05 s \(no response headers\) \(after 2 attempts without response headers; no more are made\)$/,
    );
    expect(attempts).toBe(2);
  });

  it('a stream that keeps dripping bytes forever ends at the attempt bound (the idle timer never fires)', async () => {
    server = await startSilentServer('drip');
    const model = createAnthropicModel({
      model: 'm',
      fetch: countingFetch,
      baseUrl: server.baseUrl.replace(/\/v1$/, ''),
      apiKey: 'k',
      timeoutMs: 60_000,
      attemptTimeoutMs: 100,
      retry: { maxAttempts: 2, initialDelayMs: 1, maxDelayMs: 1 },
    });
    const error = await failure(model.complete(request));
    expect(error.code).toBe('MODEL_TIMEOUT');
    expect(error.message).toMatch(/did not finish its response within 0\.1 s \(after 2 attempts\)$/);
    expect(attempts).toBe(2);
  });

  it('no retry starts past the total bound, whatever the attempts allow', async () => {
    server = await startSilentServer('headers-then-silence');
    // The total ends the first attempt; the backoff (at least 5 s) would pass it, so nothing is retried.
    const model = createOpenAIModel({
      model: 'm',
      fetch: countingFetch,
      baseUrl: server.baseUrl,
      totalTimeoutMs: 50,
      retry: { maxAttempts: 10, initialDelayMs: 10_000 },
    });
    const error = await failure(model.complete(request));
    expect(error.code).toBe('MODEL_TIMEOUT');
    expect(error.message).toMatch(
      /did not answer within the request's total time of 0\.05 s \(after 1 attempt; the request's total time of 0\.05 s leaves no room for another\)$/,
    );
    expect(attempts).toBe(1);
  });

  it('the bounds come from DSH_MODEL_* variables when no option is given, and a bad one is MODEL_CONFIG', async () => {
    server = await startSilentServer('no-headers');
    const env = { OPENAI_BASE_URL: server.baseUrl, DSH_MODEL_HEADERS_TIMEOUT_MS: '40', DSH_MODEL_MAX_ATTEMPTS: '2' };
    const error = await failure(
      createOpenAIModel({ model: 'm', fetch: countingFetch, env, retry: { initialDelayMs: 1, maxDelayMs: 1 } }).complete(request),
    );
    expect(error.message).toMatch(/within 0\.04 s .*\(after 2 attempts\)$/);
    expect(attempts).toBe(2);
    expect(() => createOpenAIModel({ model: 'm', fetch: countingFetch, env: { ...env, DSH_MODEL_TOTAL_TIMEOUT_MS: 'soon' } })).toThrow(
      /DSH_MODEL_TOTAL_TIMEOUT_MS to be a positive whole number of milliseconds, received "soon"/,
    );
  });

  it('the agent ends the turn error with the message, and appends no assistant message', async () => {
    server = await startSilentServer('no-headers');
    const model = createOpenAIModel({
      model: 'm',
      fetch: countingFetch,
      baseUrl: server.baseUrl,
      headersTimeoutMs: 30,
      retry: { maxAttempts: 2, initialDelayMs: 1, maxDelayMs: 1 },
    });
    const session = await createMemoryStore().create();
    const agent = new Agent({ session, model, tools: [] });
    agent.enqueue('hello');
    const result = await agent.idle();
    expect(result?.isError).toBe(true);
    const end = session.events.find((event) => event.type === 'turn/end');
    expect(end?.data).toMatchObject({
      reason: {
        kind: 'error',
        error: {
          code: 'MODEL_TIMEOUT',
          message: expect.stringMatching(/sent no response within 0\.03 s .*\(after 2 attempts\)/) as unknown,
        },
      },
    });
    expect(session.events.some((event) => event.type === 'assistant/message')).toBe(false);
    expect(attempts).toBe(2);
  });
});
