/**
 * The real Claude Code, offline against the fake model server: one prompt, one Bash call it runs,
 * and the session file it writes, found and parsed.
 */
import { readFile } from 'node:fs/promises';
import { printSkip } from '@dsh/test-utils';
import { describe, expect, it } from 'vitest';
import { findSessionFiles, installTool, interopSkipReason, makeInteropHome, runTool, scriptReplies, startFakeModelServer, toolEnvironment } from '../src/index.js';

const skip = interopSkipReason();
if (skip !== undefined) printSkip('interop claude-code smoke', skip);

describe.skipIf(skip !== undefined)('Claude Code (real binary, offline)', () => {
  it('runs a Bash call against the fake server and writes a session file holding the call and its result', async () => {
    await installTool('claude-code');
    await using home = await makeInteropHome();
    await using server = await startFakeModelServer({
      anthropic: scriptReplies([
        { toolCalls: [{ id: 'toolu_smoke_1', name: 'Bash', input: { command: 'echo interop-smoke', description: 'echo a word' } }] },
        { text: 'All done.' },
      ]),
    });
    const { env, sessionsDir } = await toolEnvironment('claude-code', { home: home.home, server: server.origin });
    const run = await runTool('claude-code', ['-p', 'say it', '--allowedTools', 'Bash', '--output-format', 'json'], { cwd: home.cwd, env });
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as { session_id: string; result: string };
    expect(result.result).toBe('All done.');

    const files = await findSessionFiles(sessionsDir);
    expect(files.map((file) => file.endsWith(`/${result.session_id}.jsonl`))).toEqual([true]);
    const lines = (await readFile(files[0] ?? '', 'utf8')).trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    const contentOf = (line: Record<string, unknown>) => ((line.message as { content?: unknown } | undefined)?.content ?? []) as Record<string, unknown>[];
    const toolUse = lines.find((line) => line.type === 'assistant' && contentOf(line).some((block) => block.type === 'tool_use'));
    expect(contentOf(toolUse ?? {})[0]).toMatchObject({ id: 'toolu_smoke_1', name: 'Bash' });
    const toolResult = lines.find((line) => line.type === 'user' && Array.isArray(contentOf(line)) && contentOf(line).some((block) => block.type === 'tool_result'));
    expect(contentOf(toolResult ?? {})[0]).toMatchObject({ tool_use_id: 'toolu_smoke_1', content: 'interop-smoke', is_error: false });
    // The tool result went back to the model, and nothing left the machine.
    expect(JSON.stringify(server.modelRequests('anthropic').at(-1))).toContain('interop-smoke');
    expect(server.proxied).toEqual([]);
  });
});
