/**
 * SPEC §18 `dsh repair` against the real pi: pi writes a session with a shell call, the file is cut
 * right after the entry holding the toolCall (what a kill leaves), `dsh repair FILE` closes the call,
 * and `pi --session FILE` then sends dsh's interrupted result verbatim, marked as an error, and not
 * pi's own "No result provided" patch.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { printSkip } from '@dsh/test-utils';
import { syntheticResultText } from 'dsh-codec';
import { describe, expect, it } from 'vitest';
import { findSessionFiles, installTool, interopSkipReason, jsonlLines, makeInteropHome, runDsh, runTool, scriptReplies, startFakeModelServer, toolEnvironment } from '../src/index.js';

const skip = interopSkipReason();
if (skip !== undefined) printSkip('interop pi repair', skip);

/** The tool_result blocks answering `callId` in an Anthropic Messages request, text joined. */
function resultsFor(body: Record<string, unknown>, callId: string): { text: string; isError: unknown }[] {
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

describe.skipIf(skip !== undefined)('pi resumes a session dsh repaired (real binary, offline)', () => {
  it('dsh repair FILE on a pi session killed mid-call: pi --session FILE sends dsh\'s interrupted result verbatim with isError, never "No result provided"', async () => {
    await installTool('pi');
    await using home = await makeInteropHome();
    await using server = await startFakeModelServer({
      anthropic: scriptReplies([{ toolCalls: [{ id: 'call_pi_repair', name: 'bash', input: { command: 'echo ran-before-the-kill' } }] }, { text: 'Parent done.' }, { text: 'Resumed.' }]),
    });
    const { env, sessionsDir } = await toolEnvironment('pi', { home: home.home, server: server.origin });
    const args = ['--provider', 'fake', '--model', 'fake-model'];
    const first = await runTool('pi', [...args, '-p', 'run it'], { cwd: home.cwd, env });
    expect(first.code, first.stderr).toBe(0);
    const [file = ''] = await findSessionFiles(sessionsDir);
    // What a kill right after pi wrote the toolCall entry leaves: the file up to that line.
    const raw = (await readFile(file, 'utf8')).split('\n');
    const cutAt = raw.findIndex((line) => line.includes('"toolCall"'));
    expect(cutAt).toBeGreaterThan(0);
    const killed = `${raw.slice(0, cutAt + 1).join('\n')}\n`;
    await writeFile(file, killed);

    const repaired = await runDsh(['repair', file], { cwd: home.cwd });
    expect(repaired.code, repaired.stderr).toBe(0);
    expect(await readFile(`${file}.bak`, 'utf8')).toBe(killed);
    const after = await readFile(file, 'utf8');
    expect(after.startsWith(killed)).toBe(true);
    const closer = (await jsonlLines(file)).at(-1) as { message?: { role?: string; toolCallId?: string; isError?: boolean } };
    expect(closer.message).toMatchObject({ role: 'toolResult', toolCallId: 'call_pi_repair', isError: true });
    const again = await runDsh(['repair', file], { cwd: home.cwd });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('nothing to repair');
    expect(await readFile(file, 'utf8')).toBe(after);

    const before = server.modelRequests('anthropic').length;
    const resumed = await runTool('pi', [...args, '--session', file, '-p', 'next'], { cwd: home.cwd, env });
    expect(resumed.code, resumed.stderr).toBe(0);
    const request = server.modelRequests('anthropic')[before] ?? {};
    expect(resultsFor(request, 'call_pi_repair')).toEqual([{ text: syntheticResultText('interrupted', true, 'side-effect'), isError: true }]);
    expect(JSON.stringify(request)).not.toContain('No result provided');
    expect(JSON.stringify(request)).not.toContain('ran-before-the-kill\\n');
    expect(server.proxied).toEqual([]);
  });
});
