/**
 * The real Codex, offline against the fake model server (OpenAI Responses): one prompt, one
 * exec_command call it runs, and the rollout file it writes, found and parsed.
 */
import { printSkip } from '@dsh/test-utils';
import { describe, expect, it } from 'vitest';
import { interopSkipReason, jsonlLines } from '../src/index.js';
import { shellCall, startNativeSession } from './native-session.js';

const skip = interopSkipReason();
if (skip !== undefined) printSkip('interop codex smoke', skip);

describe.skipIf(skip !== undefined)('Codex (real binary, offline)', () => {
  it('runs an exec_command call against the fake server and writes a rollout holding the call and its output', async () => {
    await using session = await startNativeSession('codex', {
      call: shellCall('codex', 'call_codex_1', 'echo interop-smoke'),
      replies: ['All done.'],
      prompt: 'say it',
    });

    expect(session.files.map((file) => /\/rollout-[^/]+\.jsonl$/.test(file))).toEqual([true]);
    const lines = (await jsonlLines(session.file)) as { type: string; payload: Record<string, unknown> }[];
    expect(lines[0]?.type).toBe('session_meta');
    const items = lines.filter((line) => line.type === 'response_item').map((line) => line.payload);
    expect(items.find((item) => item.type === 'function_call')).toMatchObject({ call_id: 'call_codex_1', name: 'exec_command' });
    expect(String(items.find((item) => item.type === 'function_call_output')?.output)).toContain('interop-smoke');
    expect(session.modelRequests()).toHaveLength(2);
    expect(session.server.proxied).toEqual([]);
  });
});
