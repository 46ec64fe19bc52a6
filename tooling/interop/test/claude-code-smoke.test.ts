/**
 * The real Claude Code, offline against the fake model server: one prompt, one Bash call it runs,
 * and the session file it writes, found and parsed.
 */
import { printSkip } from '@dsh/test-utils';
import { describe, expect, it } from 'vitest';
import { interopSkipReason, jsonlLines } from '../src/index.js';
import { startNativeSession } from './native-session.js';

const skip = interopSkipReason();
if (skip !== undefined) printSkip('interop claude-code smoke', skip);

describe.skipIf(skip !== undefined)('Claude Code (real binary, offline)', () => {
  it('runs a Bash call against the fake server and writes a session file holding the call and its result', async () => {
    await using session = await startNativeSession('claude-code', {
      call: { id: 'toolu_smoke_1', name: 'Bash', input: { command: 'echo interop-smoke', description: 'echo a word' } },
      replies: ['All done.'],
      prompt: 'say it',
    });
    const result = JSON.parse(session.first.stdout) as { session_id: string; result: string };
    expect(result.result).toBe('All done.');

    expect(session.files.map((file) => file.endsWith(`/${result.session_id}.jsonl`))).toEqual([true]);
    const lines = await jsonlLines(session.file);
    const contentOf = (line: Record<string, unknown>) =>
      ((line.message as { content?: unknown } | undefined)?.content ?? []) as Record<string, unknown>[];
    const toolUse = lines.find((line) => line.type === 'assistant' && contentOf(line).some((block) => block.type === 'tool_use'));
    expect(contentOf(toolUse ?? {})[0]).toMatchObject({ id: 'toolu_smoke_1', name: 'Bash' });
    const toolResult = lines.find(
      (line) => line.type === 'user' && Array.isArray(contentOf(line)) && contentOf(line).some((block) => block.type === 'tool_result'),
    );
    expect(contentOf(toolResult ?? {})[0]).toMatchObject({ tool_use_id: 'toolu_smoke_1', content: 'interop-smoke', is_error: false });
    // The tool result went back to the model, and nothing left the machine.
    expect(JSON.stringify(session.modelRequests().at(-1))).toContain('interop-smoke');
    expect(session.server.proxied).toEqual([]);
  });
});
