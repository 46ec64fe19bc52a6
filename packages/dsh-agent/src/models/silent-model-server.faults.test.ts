// Issue 22: a model server that accepts the connection and then never answers — no headers, headers
// and then silence, or a byte every few milliseconds forever — once held a turn for the 300 s idle
// timeout times 4 attempts. Every request must now end MODEL_TIMEOUT after its configured attempts;
// one that has not settled long after its bounds (a watchdog 30 times the total) counts unbounded.
// Issue 36: a server that never sends headers still held a turn for every attempt (4 × 60 s = 244 s):
// at most MAX_HEADERLESS_ATTEMPTS attempts may end without headers, whatever maxAttempts says.
import { describe, expect, it } from 'vitest';
import { AgentError, createAnthropicModel, createOpenAIModel, type Model, type ModelRequest } from 'dsh-agent';
import { faultTrials, reportFaults } from '@dsh/test-utils';
import { startSilentServer, type SilentMode } from './__fixtures__/silent-server.js';

const MODES: SilentMode[] = ['no-headers', 'headers-then-silence', 'drip'];
const request: ModelRequest = { messages: [{ id: 'u1', role: 'user', content: [{ type: 'text', text: 'hi' }] }], tools: [] };
const TOTAL_MS = 2_000;
/** The documented bound (docs/agent.md, Time bounds): attempts that may end without response headers. */
const MAX_HEADERLESS_ATTEMPTS = 2;

function modelFor(index: number, baseUrl: string, fetch: typeof globalThis.fetch, maxAttempts: number): Model {
  const bounds = { timeoutMs: 60_000, headersTimeoutMs: 20 + (index % 3) * 10, attemptTimeoutMs: 60, totalTimeoutMs: TOTAL_MS };
  const retry = { maxAttempts, initialDelayMs: 1, maxDelayMs: 2 };
  return index % 2 === 0
    ? createOpenAIModel({ model: 'm', baseUrl, fetch, ...bounds, retry })
    : createAnthropicModel({ model: 'm', baseUrl: baseUrl.replace(/\/v1$/, ''), apiKey: 'k', fetch, ...bounds, retry });
}

describe('a model server that never answers', () => {
  it('ends every request MODEL_TIMEOUT after the configured attempts, at most 2 headerless', { timeout: 600_000 }, async () => {
    const trials = faultTrials(12, 300);
    let timedOut = 0;
    let unbounded = 0;
    let wrongAttempts = 0;
    for (let index = 0; index < trials; index++) {
      const mode = MODES[index % MODES.length] as SilentMode;
      // 1 to 4 attempts (4 is the default), each combined with each mode over 12 trials.
      const maxAttempts = 1 + (index % 4);
      const expected = mode === 'no-headers' ? Math.min(maxAttempts, MAX_HEADERLESS_ATTEMPTS) : maxAttempts;
      const server = await startSilentServer(mode);
      let attempts = 0;
      const fetch: typeof globalThis.fetch = (input, init) => {
        attempts += 1;
        return globalThis.fetch(input, init);
      };
      let watchdog: NodeJS.Timeout | undefined;
      const outcome = await Promise.race([
        modelFor(index, server.baseUrl, fetch, maxAttempts)
          .complete(request)
          .then(
            () => 'answered',
            (error: unknown) => (AgentError.is(error) ? error.code : 'threw'),
          ),
        new Promise<string>((resolve) => {
          watchdog = setTimeout(() => {
            resolve('unbounded');
          }, TOTAL_MS * 30);
        }),
      ]);
      clearTimeout(watchdog);
      await server.close();
      if (outcome === 'MODEL_TIMEOUT') timedOut += 1;
      else if (outcome === 'unbounded') unbounded += 1;
      // Each attempt (60 ms at most, 2 ms apart) fits in the total, so every configured attempt runs —
      // except past the headerless bound.
      if (outcome === 'MODEL_TIMEOUT' && attempts !== expected) wrongAttempts += 1;
    }
    reportFaults('silent-model-server', { trials, acknowledged: timedOut, unbounded, wrongAttempts });
    expect({ timedOut, unbounded, wrongAttempts }).toEqual({ timedOut: trials, unbounded: 0, wrongAttempts: 0 });
  });
});
