/**
 * The real pi, offline against the fake model server (Anthropic Messages and Chat Completions):
 * one prompt, one bash call it runs, and the session file it writes, found and parsed.
 */
import { printSkip } from '@dsh/test-utils';
import { describe, expect, it } from 'vitest';
import { interopSkipReason, jsonlLines } from '../src/index.js';
import { shellCall, startNativeSession } from './native-session.js';

const skip = interopSkipReason();
if (skip !== undefined) printSkip('interop pi smoke', skip);

describe.skipIf(skip !== undefined)('pi (real package, offline)', () => {
  for (const api of ['anthropic-messages', 'openai-completions'] as const) {
    it(`runs a bash call through ${api} and writes a session file holding the call and its result`, async () => {
      await using session = await startNativeSession('pi', {
        call: shellCall('pi', 'call_pi_1', 'echo interop-smoke'),
        replies: ['All done.'],
        prompt: 'say it',
        piApi: api,
      });
      expect(session.first.stdout.trim()).toBe('All done.');

      expect(session.files).toHaveLength(1);
      const lines = await jsonlLines(session.file);
      expect(lines[0]).toMatchObject({ type: 'session' });
      const messages = lines.filter((line) => line.type === 'message').map((line) => line.message as Record<string, unknown>);
      expect(messages.find((message) => message.role === 'toolResult')).toMatchObject({ toolCallId: 'call_pi_1', isError: false });
      expect(JSON.stringify(messages)).toContain('interop-smoke');
      expect(session.modelRequests()).toHaveLength(2);
      expect(session.server.proxied).toEqual([]);
    });
  }
});
