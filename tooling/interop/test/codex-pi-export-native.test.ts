/**
 * SPEC §18 `dsh export --format codex|pi` against the real tools: the tool writes a session with a
 * shell call and its result, dsh imports it, exports it as that tool's file beside the source, and
 * the tool's own resume (`codex exec resume ID`, `pi --session FILE`) sends the exported call and its
 * result exactly as the tool itself sent them in the original run.
 */
import { dirname } from 'node:path';
import { printSkip } from '@dsh/test-utils';
import { describe, expect, it } from 'vitest';
import { findSessionFiles, installTool, interopSkipReason, makeInteropHome, runDsh, runTool, scriptReplies, startFakeModelServer, toolEnvironment } from '../src/index.js';

const skip = interopSkipReason();
if (skip !== undefined) printSkip('interop codex + pi export', skip);

type Block = Record<string, unknown>;

/** Imports `file` into a fresh data folder, exports it as `format` into the file's folder: the new id and file. */
async function importThenExport(file: string, format: 'codex' | 'pi', home: { home: string; cwd: string }): Promise<{ id: string; file: string; stderr: string }> {
  const data = `${home.home}/dsh-data`;
  const imported = await runDsh(['import', file, '--data', data, '--json'], { cwd: home.cwd });
  expect(imported.code, imported.stderr).toBe(0);
  const id = (JSON.parse(imported.stdout) as { sessions: { id: string }[] }[])[0]?.sessions[0]?.id ?? '';
  const exported = await runDsh(['export', id, '--format', format, '--out', dirname(file), '--data', data], { cwd: home.cwd });
  expect(exported.code, exported.stderr).toBe(0);
  const childId = exported.stdout.trim();
  const into = /into (\S+\.jsonl)\n/.exec(exported.stderr)?.[1] ?? '';
  expect(into.startsWith(`${dirname(file)}/`), exported.stderr).toBe(true);
  expect(into).toContain(childId);
  return { id: childId, file: into, stderr: exported.stderr };
}

/** The tool_use block `callId` and the tool_result answering it in an Anthropic Messages request. */
function callAndResult(body: Record<string, unknown>, callId: string): { call: Block | undefined; result: Block | undefined } {
  const blocks = (body.messages as { content: unknown }[]).flatMap((message) => (Array.isArray(message.content) ? (message.content as Block[]) : []));
  return { call: blocks.find((block) => block.type === 'tool_use' && block.id === callId), result: blocks.find((block) => block.type === 'tool_result' && block.tool_use_id === callId) };
}

/** The function_call item `callId` and its function_call_output in a Responses request. */
function codexCallAndOutput(body: Record<string, unknown> | undefined, callId: string): { call: Block | undefined; output: Block | undefined } {
  const input = (body?.input ?? []) as Block[];
  return { call: input.find((item) => item.type === 'function_call' && item.call_id === callId), output: input.find((item) => item.type === 'function_call_output' && item.call_id === callId) };
}

/** The result's text, whatever shape the wire gives it. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return (content as { text?: string }[]).map((part) => part.text ?? '').join('');
  return JSON.stringify(content);
}

describe.skipIf(skip !== undefined)('Codex and pi resume what dsh export writes (real tools, offline)', () => {
  it('Codex: dsh export --format codex of an imported rollout, codex exec resume <new id> sends the call and its result as the original run did', async () => {
    await installTool('codex');
    await using home = await makeInteropHome();
    await using server = await startFakeModelServer({
      responses: scriptReplies([{ toolCalls: [{ id: 'call_codex_export', name: 'exec_command', input: { cmd: 'echo exported-result' } }] }, { text: 'Parent done.' }, { text: 'Resumed from the export.' }]),
    });
    const { env, sessionsDir } = await toolEnvironment('codex', { home: home.home, server: server.origin });
    const flags = ['--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox'];
    const first = await runTool('codex', ['exec', ...flags, 'run it'], { cwd: home.cwd, env });
    expect(first.code, first.stderr).toBe(0);
    const [file = ''] = await findSessionFiles(sessionsDir);
    // What codex itself sent after running the call: the oracle for the resumed export.
    const original = codexCallAndOutput(server.modelRequests('responses')[1], 'call_codex_export');
    expect(textOf(original.output?.output)).toContain('exported-result');

    const exported = await importThenExport(file, 'codex', home);
    expect(exported.file).toMatch(new RegExp(`/rollout-[0-9T-]+-${exported.id}\\.jsonl$`));
    expect(exported.stderr).toContain(`codex exec resume ${exported.id}`);

    const before = server.modelRequests('responses').length;
    const resumed = await runTool('codex', ['exec', ...flags, 'resume', exported.id, 'again'], { cwd: home.cwd, env });
    expect(resumed.code, resumed.stderr).toBe(0);
    const now = codexCallAndOutput(server.modelRequests('responses')[before], 'call_codex_export');
    expect(now.call).toMatchObject({ name: original.call?.name, arguments: original.call?.arguments });
    expect(textOf(now.output?.output)).toBe(textOf(original.output?.output));
    expect(JSON.stringify(server.modelRequests('responses')[before])).not.toContain('"aborted"');
    expect(server.proxied).toEqual([]);
  });

  it('pi: dsh export --format pi of an imported session, pi --session <exported file> sends the call and its result as the original run did', async () => {
    await installTool('pi');
    await using home = await makeInteropHome();
    await using server = await startFakeModelServer({
      anthropic: scriptReplies([{ toolCalls: [{ id: 'call_pi_export', name: 'bash', input: { command: 'echo exported-result' } }] }, { text: 'Parent done.' }, { text: 'Resumed from the export.' }]),
    });
    const { env, sessionsDir } = await toolEnvironment('pi', { home: home.home, server: server.origin });
    const args = ['--provider', 'fake', '--model', 'fake-model'];
    const first = await runTool('pi', [...args, '-p', 'run it'], { cwd: home.cwd, env });
    expect(first.code, first.stderr).toBe(0);
    const [file = ''] = await findSessionFiles(sessionsDir);
    const original = callAndResult(server.modelRequests('anthropic').at(-1) ?? {}, 'call_pi_export');
    expect(textOf(original.result?.content)).toContain('exported-result');

    const exported = await importThenExport(file, 'pi', home);
    expect(exported.file).toMatch(new RegExp(`/[0-9TZ-]+_${exported.id}\\.jsonl$`));
    expect(exported.stderr).toContain(`pi --session ${exported.file}`);

    const before = server.modelRequests('anthropic').length;
    const resumed = await runTool('pi', [...args, '--session', exported.file, '-p', 'again'], { cwd: home.cwd, env });
    expect(resumed.code, resumed.stderr).toBe(0);
    const now = callAndResult(server.modelRequests('anthropic')[before] ?? {}, 'call_pi_export');
    expect(now.call).toMatchObject({ name: 'bash', input: { command: 'echo exported-result' } });
    expect(textOf(now.result?.content)).toBe(textOf(original.result?.content));
    expect(now.result?.is_error).toBe(original.result?.is_error ?? false);
    expect(JSON.stringify(server.modelRequests('anthropic')[before])).not.toContain('No result provided');
    expect(server.proxied).toEqual([]);
  });
});
