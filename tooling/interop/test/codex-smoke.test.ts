/**
 * The real Codex, offline against the fake model server (OpenAI Responses): one prompt, one
 * exec_command call it runs, and the rollout file it writes, found and parsed.
 */
import { readFile } from 'node:fs/promises';
import { printSkip } from '@dsh/test-utils';
import { describe, expect, it } from 'vitest';
import { findSessionFiles, installTool, interopSkipReason, makeInteropHome, runTool, scriptReplies, startFakeModelServer, toolEnvironment } from '../src/index.js';

const skip = interopSkipReason();
if (skip !== undefined) printSkip('interop codex smoke', skip);

describe.skipIf(skip !== undefined)('Codex (real binary, offline)', () => {
  it('runs an exec_command call against the fake server and writes a rollout holding the call and its output', async () => {
    await installTool('codex');
    await using home = await makeInteropHome();
    await using server = await startFakeModelServer({
      responses: scriptReplies([{ toolCalls: [{ id: 'call_codex_1', name: 'exec_command', input: { cmd: 'echo interop-smoke' } }] }, { text: 'All done.' }]),
    });
    const { env, sessionsDir } = await toolEnvironment('codex', { home: home.home, server: server.origin });
    const run = await runTool('codex', ['exec', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox', 'say it'], { cwd: home.cwd, env });
    expect(run.code, run.stderr).toBe(0);

    const files = await findSessionFiles(sessionsDir);
    expect(files.map((file) => /\/rollout-[^/]+\.jsonl$/.test(file))).toEqual([true]);
    const lines = (await readFile(files[0] ?? '', 'utf8')).trimEnd().split('\n').map((line) => JSON.parse(line) as { type: string; payload: Record<string, unknown> });
    expect(lines[0]?.type).toBe('session_meta');
    const items = lines.filter((line) => line.type === 'response_item').map((line) => line.payload);
    expect(items.find((item) => item.type === 'function_call')).toMatchObject({ call_id: 'call_codex_1', name: 'exec_command' });
    expect(String(items.find((item) => item.type === 'function_call_output')?.output)).toContain('interop-smoke');
    expect(server.modelRequests('responses')).toHaveLength(2);
    expect(server.proxied).toEqual([]);
  });
});
