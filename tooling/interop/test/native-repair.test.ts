/**
 * SPEC §18 `dsh repair FILE` against the real Claude Code, Codex and pi: each writes a session with a
 * call, the file is cut right after the entry holding the call and the first half of the line the
 * tool wrote next (what a kill mid-write leaves: a torn last line, SPEC §26), `dsh repair FILE` moves
 * the torn bytes out and closes the call in place (keeping `FILE.bak`; a second repair finds nothing
 * to do), and the tool's own resume then sends dsh's interrupted result verbatim after the call —
 * marked as an error where the wire has a flag — and none of the tool's own patches.
 */
import { Buffer } from 'node:buffer';
import { appendFile, readFile } from 'node:fs/promises';
import { printSkip, runDsh, type ScriptedToolCall } from '@dsh/test-utils';
import { syntheticResultText, type ToolEffect } from 'dsh-codec';
import { describe, expect, it } from 'vitest';
import { interopSkipReason, jsonlLines } from '../src/index.js';
import { expectDshCloser } from './expect-dsh-closer.js';
import { killAtCall, resumeOf, sourceSessionId } from './native-entries.js';
import { NATIVE_TOOLS, shellCall, startNativeSession, type NativeTool } from './native-session.js';

const skip = interopSkipReason();
if (skip !== undefined) printSkip('interop native repair', skip);

/** The call each tool makes before the kill, and its effect (which chooses the closer's advice). */
const CALLS: Record<
  NativeTool,
  { callId: string; call: ScriptedToolCall | ((cwd: string) => ScriptedToolCall); effect: ToolEffect; output?: string }
> = {
  'claude-code': {
    callId: 'toolu_repair_1',
    call: (cwd) => ({ id: 'toolu_repair_1', name: 'Read', input: { file_path: `${cwd}/missing.txt` } }),
    effect: 'read-only',
  },
  codex: { callId: 'call_codex_repair', call: shellCall('codex', 'call_codex_repair', 'echo x'), effect: 'side-effect' },
  pi: {
    callId: 'call_pi_repair',
    call: shellCall('pi', 'call_pi_repair', 'echo ran-before-the-kill'),
    effect: 'side-effect',
    output: 'ran-before-the-kill\\n',
  },
};

describe.skipIf(skip !== undefined)('Claude Code, Codex and pi resume a session dsh repaired (real tools, offline)', () => {
  for (const tool of NATIVE_TOOLS) {
    it(`${tool}: dsh repair FILE on a session killed mid-call and mid-line moves the torn line out, the resume sends dsh's interrupted result verbatim after the call, FILE.bak keeps the original`, async () => {
      const { callId, call, effect, output } = CALLS[tool];
      await using session = await startNativeSession(tool, { call, replies: ['Parent done.', 'Resumed.'] });
      const { file } = session;
      const whole = await readFile(file, 'utf8');
      const sessionId = sourceSessionId(tool, await jsonlLines(file));
      const killed = await killAtCall(tool, file);
      // The first half of the line the tool wrote after the call: torn by the kill.
      const next = whole.slice(killed.length).split('\n')[0] ?? '';
      expect(next.length, 'the tool wrote a line after the call').toBeGreaterThan(2);
      const torn = next.slice(0, Math.floor(next.length / 2));
      await appendFile(file, torn);

      const repaired = await runDsh(['repair', file], { cwd: session.home.cwd });
      expect(repaired.code, repaired.stderr).toBe(0);
      expect(repaired.stderr).toContain(`torn last line (${String(Buffer.byteLength(torn))} bytes) was moved out`);
      expect(await readFile(`${file}.bak`, 'utf8')).toBe(killed + torn);
      const after = await readFile(file, 'utf8');
      expect(after.startsWith(killed)).toBe(true);
      // Only whole lines follow: the closers, each a JSON object.
      for (const line of after.slice(killed.length).trimEnd().split('\n')) expect(() => JSON.parse(line) as unknown, line).not.toThrow();
      if (tool === 'pi') {
        const closer = (await jsonlLines(file)).at(-1) as { message?: unknown };
        expect(closer.message).toMatchObject({ role: 'toolResult', toolCallId: callId, isError: true });
      }
      const again = await runDsh(['repair', file], { cwd: session.home.cwd });
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr).toContain('nothing to repair');
      expect(await readFile(file, 'utf8')).toBe(after);

      const request = await session.resume(resumeOf(tool, { id: sessionId, file }).ref, 'go on');
      expectDshCloser(tool, request, callId, syntheticResultText('interrupted', true, effect));
      if (output !== undefined) expect(JSON.stringify(request)).not.toContain(output);
      expect(session.server.proxied).toEqual([]);
    });
  }
});
