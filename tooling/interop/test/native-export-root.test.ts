/**
 * SPEC §26 Output against the real tools: `dsh export --format <tool> --out <the tool's session
 * root>` files the export where the tool keeps the session's project (Claude Code its project
 * folder, Codex a date folder, pi its cwd folder), and the `resume it with:` line dsh prints — run
 * as printed by `sh`, from another directory, with the project folder's name one a shell would split —
 * resumes it: the tool's next request carries the exported call and its result.
 */
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { printSkip } from '@dsh/test-utils';
import { describe, expect, it } from 'vitest';
import { installTool, interopSkipReason, runBin } from '../src/index.js';
import { makeDshStore } from './dsh-store.js';
import { expectResultAfterCall } from './expect-dsh-closer.js';
import { NATIVE_TOOLS, shellCall, startNativeSession, type NativeSession, type NativeTool } from './native-session.js';
import { sentResult } from './request-readers.js';

const skip = interopSkipReason();
if (skip !== undefined) printSkip('interop export into a session root', skip);

/** What turns the printed (interactive) command into a one-shot run: the words each stand-in adds around the printed argv. */
function wrapper(tool: NativeTool, bin: string, prompt: string): string {
  if (tool === 'claude-code') return `exec '${bin}' "$@" -p '${prompt}' --allowedTools Bash --output-format json`;
  // `codex exec resume ID` → `codex exec <offline flags> resume ID PROMPT`.
  if (tool === 'codex')
    return `shift; exec '${bin}' exec --skip-git-repo-check --dangerously-bypass-approvals-and-sandbox "$@" '${prompt}'`;
  return `exec '${bin}' --provider fake --model fake-model "$@" -p '${prompt}'`;
}

/** Runs the printed `line` with `sh` from HOME, the tool's home variables unset (the line names what it needs): the request it sent. */
async function runPrinted(session: NativeSession, line: string, prompt: string): Promise<Record<string, unknown>> {
  const { bin = '' } = await installTool(session.tool);
  const shims = join(session.home.home, 'shims');
  await mkdir(shims, { recursive: true });
  const name = { 'claude-code': 'claude', codex: 'codex', pi: 'pi' }[session.tool];
  await writeFile(join(shims, name), `#!/bin/sh\n${wrapper(session.tool, bin, prompt)}\n`);
  await chmod(join(shims, name), 0o755);
  const { CLAUDE_CONFIG_DIR: _claude, CODEX_HOME: _codex, ...env } = session.env;
  const before = session.modelRequests().length;
  const run = await runBin('/bin/sh', ['-c', line], { cwd: session.home.home, env: { ...env, PATH: `${shims}:${env.PATH ?? ''}` } });
  expect(run.code, `${line}\n${run.stderr}`).toBe(0);
  return session.modelRequests()[before] ?? {};
}

describe.skipIf(skip !== undefined)("dsh export --out <a tool's session root>: the printed line resumes it (real tools, offline)", () => {
  for (const tool of NATIVE_TOOLS) {
    it(`${tool}: the export is filed where ${tool} keeps the project, and the printed resume line, run by sh, resumes it`, async () => {
      const callId = `call_root_${tool.replace('-', '_')}`;
      const wire = tool === 'codex' ? 'responses' : 'anthropic';
      await using session = await startNativeSession(tool, {
        call: shellCall(tool, callId, 'echo filed-result'),
        replies: ['Parent done.', 'Resumed from the root.'],
        project: "my project's dir",
      });
      const original = sentResult(
        wire,
        session.modelRequests().findLast((body) => sentResult(wire, body, callId).text !== undefined),
        callId,
      );
      await using store = makeDshStore('jsonl', session.home);
      const id = await store.importFile(session.file);
      const exported = await store.dsh(['export', id, '--format', tool, '--out', session.sessionsDir]);
      const into = /into (.+\.jsonl)\n/.exec(exported.stderr)?.[1] ?? '';
      const line = /resume it with: (.*)\n/.exec(exported.stderr)?.[1] ?? '';
      // Filed beside the tool's own session (Codex: today's date folder, the same as its own run's).
      expect(into.slice(0, into.lastIndexOf('/')), exported.stderr).toBe(session.file.slice(0, session.file.lastIndexOf('/')));
      expect(await readFile(into, 'utf8')).toContain(exported.stdout.trim());

      const request = await runPrinted(session, line, 'again');
      expectResultAfterCall(tool, request, callId, { text: original.text ?? '', isError: false });
      expect(session.server.proxied).toEqual([]);
    });
  }
});
