/**
 * SPEC §18 against the real pi and Codex: each writes a session with a shell call; `dsh fork FILE
 * --at <the call's entry>` writes the child beside it; the tool's own resume (`pi --session FILE`,
 * `codex exec resume ID`) then sends the call followed by dsh's forked result verbatim, and none of
 * the tool's own patches ("No result provided", "aborted"). `dsh repair` the same, interrupted.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { printSkip } from '@dsh/test-utils';
import { syntheticResultText } from 'dsh-codec';
import { describe, expect, it } from 'vitest';
import { findSessionFiles, installTool, interopSkipReason, jsonlLines, makeInteropHome, runDsh, runTool, scriptReplies, startFakeModelServer, toolEnvironment } from '../src/index.js';

const skip = interopSkipReason();
if (skip !== undefined) printSkip('interop pi + codex native fork', skip);

type ForkJson = { session_id: string; file: string; format: string; parent_session: string; cut: number; resume: string[] };

/** The text of the result blocks/items answering `callId` in a request, wherever the wire puts them. */
function anthropicResultsFor(body: Record<string, unknown>, callId: string): { text: string; isError: unknown }[] {
  const out: { text: string; isError: unknown }[] = [];
  for (const message of body.messages as { content: unknown }[]) {
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content as Record<string, unknown>[]) {
      if (block.type !== 'tool_result' || block.tool_use_id !== callId) continue;
      const content = block.content;
      const text = typeof content === 'string' ? content : (content as { text?: string }[]).map((part) => part.text ?? '').join('');
      out.push({ text, isError: block.is_error });
    }
  }
  return out;
}

describe.skipIf(skip !== undefined)('pi and Codex resume what dsh writes (real tools, offline)', () => {
  it('pi: dsh fork FILE --at <toolCall entry id>, then pi --session <child> sends dsh\'s forked result verbatim, marked isError', async () => {
    await installTool('pi');
    await using home = await makeInteropHome();
    await using server = await startFakeModelServer({
      anthropic: scriptReplies([{ toolCalls: [{ id: 'call_pi_fork', name: 'bash', input: { command: 'echo parent-ran-it' } }] }, { text: 'Parent done.' }, { text: 'Child goes on.' }]),
    });
    const { env, sessionsDir } = await toolEnvironment('pi', { home: home.home, server: server.origin });
    const args = ['--provider', 'fake', '--model', 'fake-model'];
    expect((await runTool('pi', [...args, '-p', 'run it'], { cwd: home.cwd, env })).code).toBe(0);
    const [file = ''] = await findSessionFiles(sessionsDir);
    const sourceBytes = await readFile(file);
    const entry = (await jsonlLines(file)).find((line) => JSON.stringify(line.message ?? {}).includes('"toolCall"'));

    const forked = await runDsh(['fork', file, '--at', String(entry?.id), '--json'], { cwd: home.cwd });
    expect(forked.code, forked.stderr).toBe(0);
    const result = JSON.parse(forked.stdout) as ForkJson;
    expect(result).toMatchObject({ format: 'pi', resume: ['pi', '--session', result.file] });
    expect(result.file).toMatch(new RegExp(`/[0-9TZ-]+_${result.session_id}\\.jsonl$`));
    const header = (await jsonlLines(result.file))[0];
    expect(header).toMatchObject({ type: 'session', id: result.session_id, parentSession: file });
    expect(await readFile(file)).toEqual(sourceBytes);

    const before = server.modelRequests('anthropic').length;
    const resumed = await runTool('pi', [...args, '--session', result.file, '-p', 'and now?'], { cwd: home.cwd, env });
    expect(resumed.code, resumed.stderr).toBe(0);
    const request = server.modelRequests('anthropic')[before] ?? {};
    expect(anthropicResultsFor(request, 'call_pi_fork')).toEqual([{ text: syntheticResultText('forked', true, 'side-effect'), isError: true }]);
    expect(JSON.stringify(request)).not.toContain('No result provided');
    expect(JSON.stringify(request)).not.toContain('parent-ran-it\\n');
    expect(server.proxied).toEqual([]);
  });

  it('Codex: dsh fork FILE --at <function_call ordinal>, then codex exec resume <child> sends dsh\'s forked result verbatim, not "aborted"', async () => {
    await installTool('codex');
    await using home = await makeInteropHome();
    await using server = await startFakeModelServer({
      responses: scriptReplies([{ toolCalls: [{ id: 'call_codex_fork', name: 'exec_command', input: { cmd: 'echo parent-ran-it' } }] }, { text: 'Parent done.' }, { text: 'Child goes on.' }]),
    });
    const { env, sessionsDir } = await toolEnvironment('codex', { home: home.home, server: server.origin });
    const flags = ['--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox'];
    expect((await runTool('codex', ['exec', ...flags, 'run it'], { cwd: home.cwd, env })).code).toBe(0);
    const [file = ''] = await findSessionFiles(sessionsDir);
    const sourceBytes = await readFile(file);
    const call = (await jsonlLines(file)).find((line) => (line.payload as { type?: string } | undefined)?.type === 'function_call');

    const forked = await runDsh(['fork', file, '--at', String(call?.ordinal), '--json'], { cwd: home.cwd });
    expect(forked.code, forked.stderr).toBe(0);
    const result = JSON.parse(forked.stdout) as ForkJson;
    expect(result).toMatchObject({ format: 'codex', resume: ['codex', 'exec', 'resume', result.session_id] });
    expect(result.file).toMatch(new RegExp(`/rollout-[0-9T-]+-${result.session_id}\\.jsonl$`));
    expect(await readFile(file)).toEqual(sourceBytes);

    const before = server.modelRequests('responses').length;
    const resumed = await runTool('codex', ['exec', ...flags, 'resume', result.session_id, 'and now?'], { cwd: home.cwd, env });
    expect(resumed.code, resumed.stderr).toBe(0);
    const input = (server.modelRequests('responses')[before]?.input ?? []) as Record<string, unknown>[];
    const at = input.findIndex((item) => item.type === 'function_call' && item.call_id === 'call_codex_fork');
    expect(at).toBeGreaterThanOrEqual(0);
    expect(input[at + 1]).toMatchObject({ type: 'function_call_output', call_id: 'call_codex_fork' });
    const output = input[at + 1]?.output;
    expect(typeof output === 'string' ? output : JSON.stringify(output)).toBe(syntheticResultText('forked', true, 'side-effect'));
    expect(JSON.stringify(input)).not.toContain('"aborted"');
    expect(server.proxied).toEqual([]);
  });

  it('Codex: dsh repair FILE on a rollout killed mid-call closes the call with dsh\'s interrupted result, which codex exec resume sends', async () => {
    await installTool('codex');
    await using home = await makeInteropHome();
    await using server = await startFakeModelServer({
      responses: scriptReplies([{ toolCalls: [{ id: 'call_codex_repair', name: 'exec_command', input: { cmd: 'echo x' } }] }, { text: 'Parent done.' }, { text: 'Resumed.' }]),
    });
    const { env, sessionsDir } = await toolEnvironment('codex', { home: home.home, server: server.origin });
    const flags = ['--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox'];
    expect((await runTool('codex', ['exec', ...flags, 'run it'], { cwd: home.cwd, env })).code).toBe(0);
    const [file = ''] = await findSessionFiles(sessionsDir);
    const raw = (await readFile(file, 'utf8')).split('\n');
    const cutAt = raw.findIndex((line) => line.includes('"type":"function_call"'));
    const killed = `${raw.slice(0, cutAt + 1).join('\n')}\n`;
    await writeFile(file, killed);
    const sessionId = ((await jsonlLines(file))[0]?.payload as { id: string }).id;

    const repaired = await runDsh(['repair', file], { cwd: home.cwd });
    expect(repaired.code, repaired.stderr).toBe(0);
    expect(await readFile(`${file}.bak`, 'utf8')).toBe(killed);

    const before = server.modelRequests('responses').length;
    const resumed = await runTool('codex', ['exec', ...flags, 'resume', sessionId, 'go on'], { cwd: home.cwd, env });
    expect(resumed.code, resumed.stderr).toBe(0);
    const input = (server.modelRequests('responses')[before]?.input ?? []) as Record<string, unknown>[];
    const output = input.find((item) => item.type === 'function_call_output' && item.call_id === 'call_codex_repair')?.output;
    expect(output).toBe(syntheticResultText('interrupted', true, 'side-effect'));
    expect(JSON.stringify(input)).not.toContain('"aborted"');
  });
});
