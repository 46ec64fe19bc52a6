/**
 * SPEC §18 against the real Claude Code: it writes a session with a Bash call; `dsh fork FILE --at
 * <the tool_use uuid>` writes the child beside it; `claude -p --resume <child>` then sends the call
 * followed by dsh's forked result verbatim, marked as an error, and none of Claude Code's own
 * patches. `dsh repair` on a file killed mid-call: the same, with dsh's interrupted wording.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { printSkip } from '@dsh/test-utils';
import { syntheticResultText } from 'dsh-codec';
import { describe, expect, it } from 'vitest';
import {
  findSessionFiles,
  installTool,
  interopSkipReason,
  jsonlLines,
  makeInteropHome,
  runDsh,
  runTool,
  scriptReplies,
  startFakeModelServer,
  toolEnvironment,
  roundTrip,
  type FakeModelServer,
} from '../src/index.js';
import { dirname } from 'node:path';

const skip = interopSkipReason();
if (skip !== undefined) printSkip('interop claude-code native fork', skip);

// Claude Code's own patches for a call without a result (SPEC §18's table). Not among them: the
// assistant placeholder "No response requested." it inserts after any resumed transcript that ends
// on a user entry (observed in 2.1.332; docs/import.md), which follows dsh's result, never replaces it.
const PATCHES = ['[Tool result missing due to internal error]', '[Tool call interrupted', 'Continue from where you left off'];

type Block = Record<string, unknown>;
type Message = { role: string; content: string | Block[] };

/** The tool_result blocks that follow the tool_use `callId` in a Messages request. */
function resultsAfter(body: Record<string, unknown>, callId: string): Block[] {
  const messages = body.messages as Message[];
  const at = messages.findIndex((message) => Array.isArray(message.content) && message.content.some((block) => block.type === 'tool_use' && block.id === callId));
  expect(at, 'the request carries the inherited tool_use').toBeGreaterThanOrEqual(0);
  const next = messages[at + 1];
  expect(next?.role).toBe('user');
  return (Array.isArray(next?.content) ? next.content : []).filter((block) => block.type === 'tool_result' && block.tool_use_id === callId);
}

async function writeSessionWithCall(server: FakeModelServer, home: { home: string; cwd: string }) {
  const { env, sessionsDir } = await toolEnvironment('claude-code', { home: home.home, server: server.origin });
  const run = await runTool('claude-code', ['-p', 'run the echo', '--allowedTools', 'Bash', '--output-format', 'json'], { cwd: home.cwd, env });
  expect(run.code, run.stderr).toBe(0);
  const [file] = await findSessionFiles(sessionsDir);
  const lines = await jsonlLines(file ?? '');
  const toolUse = lines.find((line) => line.type === 'assistant' && JSON.stringify(line.message).includes('"tool_use"'));
  return { env, file: file ?? '', toolUseUuid: String(toolUse?.uuid), sessionId: String(toolUse?.sessionId), lines };
}

describe.skipIf(skip !== undefined)('Claude Code resumes what dsh writes (real binary, offline)', () => {
  it('dsh fork FILE --at <tool_use uuid>: the resumed child sends dsh\'s forked result verbatim after the call, and no patch of its own', async () => {
    await installTool('claude-code');
    await using home = await makeInteropHome();
    await using server = await startFakeModelServer({
      anthropic: scriptReplies([
        { toolCalls: [{ id: 'toolu_fork_1', name: 'Bash', input: { command: 'echo parent-ran-it', description: 'echo' } }] },
        { text: 'Parent done.' },
        { text: 'Child continues.' },
      ]),
    });
    const source = await writeSessionWithCall(server, home);
    const sourceBytes = await readFile(source.file);

    const forked = await runDsh(['fork', source.file, '--at', source.toolUseUuid, '--json'], { cwd: home.cwd });
    expect(forked.code, forked.stderr).toBe(0);
    const result = JSON.parse(forked.stdout) as { session_id: string; file: string; format: string; parent_session: string; cut: number; resume: string[] };
    expect(result).toMatchObject({ format: 'claude-code', parent_session: source.sessionId, resume: ['claude', '--resume', result.session_id] });
    expect(result.file).toBe(source.file.replace(/[^/]+\.jsonl$/, `${result.session_id}.jsonl`));
    expect(await readFile(source.file)).toEqual(sourceBytes);

    // The child: the chain to the tool_use as written (only sessionId changed), then dsh's result.
    const childText = await readFile(result.file, 'utf8');
    const childLines = childText.trimEnd().split('\n');
    const sourceRaw = sourceBytes.toString('utf8').trimEnd().split('\n');
    const inherited = childLines.slice(0, -1);
    for (const line of inherited) expect(sourceRaw).toContain(line.split(`"sessionId":"${result.session_id}"`).join(`"sessionId":"${source.sessionId}"`));
    expect(inherited.at(-1)).toContain(source.toolUseUuid);
    const expected = syntheticResultText('forked', true, 'side-effect');

    const requestsBefore = server.modelRequests('anthropic').length;
    const resumed = await runTool('claude-code', ['-p', 'and now?', '--resume', result.session_id, '--allowedTools', 'Bash', '--output-format', 'json'], { cwd: home.cwd, env: source.env });
    expect(resumed.code, resumed.stderr).toBe(0);
    const request = server.modelRequests('anthropic')[requestsBefore] ?? {};
    expect(resultsAfter(request, 'toolu_fork_1')).toEqual([expect.objectContaining({ content: expected, is_error: true })]);
    const raw = JSON.stringify(request);
    for (const patch of PATCHES) expect(raw).not.toContain(patch);
    expect(raw).not.toContain('parent-ran-it\\n"'); // the parent's own result lies after the cut
    expect(server.proxied).toEqual([]);
  });

  it('dsh repair FILE on a session killed mid-call: the resumed session sends dsh\'s interrupted result verbatim, FILE.bak keeps the original', async () => {
    await installTool('claude-code');
    await using home = await makeInteropHome();
    await using server = await startFakeModelServer({
      anthropic: scriptReplies([
        { toolCalls: [{ id: 'toolu_repair_1', name: 'Read', input: { file_path: `${home.cwd}/missing.txt` } }] },
        { text: 'Parent done.' },
        { text: 'Resumed.' },
      ]),
    });
    const source = await writeSessionWithCall(server, home);
    // What a kill right after the tool_use leaves: the file up to that line.
    const raw = (await readFile(source.file, 'utf8')).split('\n');
    const cutAt = raw.findIndex((line) => line.includes(`"uuid":"${source.toolUseUuid}"`));
    const killed = `${raw.slice(0, cutAt + 1).join('\n')}\n`;
    await writeFile(source.file, killed);

    const repaired = await runDsh(['repair', source.file], { cwd: home.cwd });
    expect(repaired.code, repaired.stderr).toBe(0);
    expect(await readFile(`${source.file}.bak`, 'utf8')).toBe(killed);
    const after = await readFile(source.file, 'utf8');
    expect(after.startsWith(killed)).toBe(true);
    const again = await runDsh(['repair', source.file], { cwd: home.cwd });
    expect(again.stderr).toContain('nothing to repair');
    expect(await readFile(source.file, 'utf8')).toBe(after);

    const before = server.modelRequests('anthropic').length;
    const resumed = await runTool('claude-code', ['-p', 'go on', '--resume', source.sessionId, '--output-format', 'json'], { cwd: home.cwd, env: source.env });
    expect(resumed.code, resumed.stderr).toBe(0);
    const request = server.modelRequests('anthropic')[before] ?? {};
    expect(resultsAfter(request, 'toolu_repair_1')).toEqual([expect.objectContaining({ content: syntheticResultText('interrupted', true, 'read-only'), is_error: true })]);
    for (const patch of PATCHES) expect(JSON.stringify(request)).not.toContain(patch);
  });

  it('dsh export --format claude-code of an imported session: claude --resume sends its history back; import ∘ export keeps it in every format', async () => {
    await installTool('claude-code');
    await using home = await makeInteropHome();
    await using server = await startFakeModelServer({
      anthropic: scriptReplies([
        { toolCalls: [{ id: 'toolu_export_1', name: 'Bash', input: { command: 'echo exported-result', description: 'echo' } }] },
        { text: 'Parent done.' },
        { text: 'Resumed from the export.' },
      ]),
    });
    const source = await writeSessionWithCall(server, home);
    const text = await readFile(source.file, 'utf8');
    for (const target of ['claude-code', 'codex', 'pi'] as const) {
      const { before, after } = roundTrip(text, target);
      expect(after, target).toEqual(before);
    }
    const data = `${home.home}/dsh-data`;
    const imported = await runDsh(['import', source.file, '--data', data, '--json'], { cwd: home.cwd });
    expect(imported.code, imported.stderr).toBe(0);
    const id = (JSON.parse(imported.stdout) as { sessions: { id: string }[] }[])[0]?.sessions[0]?.id ?? '';
    const exported = await runDsh(['export', id, '--format', 'claude-code', '--out', dirname(source.file), '--data', data], { cwd: home.cwd });
    expect(exported.code, exported.stderr).toBe(0);
    const childId = exported.stdout.trim();
    expect(exported.stderr).toContain(`claude --resume ${childId}`);

    const before = server.modelRequests('anthropic').length;
    const resumed = await runTool('claude-code', ['-p', 'again', '--resume', childId, '--output-format', 'json'], { cwd: home.cwd, env: source.env });
    expect(resumed.code, resumed.stderr).toBe(0);
    const request = server.modelRequests('anthropic')[before] ?? {};
    expect(resultsAfter(request, 'toolu_export_1')).toEqual([expect.objectContaining({ content: 'exported-result', is_error: false })]);
    for (const patch of PATCHES) expect(JSON.stringify(request)).not.toContain(patch);
  });
});
