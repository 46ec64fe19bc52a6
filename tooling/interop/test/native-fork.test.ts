/**
 * SPEC §18 `dsh fork FILE --at REF` against the real Claude Code, Codex and pi: each writes a session
 * with a shell call; `dsh fork FILE --at <the call's entry>` (Claude Code's `uuid`, Codex's
 * `ordinal`, pi's `id`) writes the child beside it under the tool's own file name; the tool's own
 * resume (`claude --resume ID`, `codex exec resume ID`, `pi --session FILE`) then sends the call
 * followed by dsh's forked result verbatim — marked as an error where the wire has a flag — and none
 * of the tool's own patches ("[Tool result missing due to internal error]", "aborted", "No result
 * provided").
 */
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { printSkip, runDsh } from '@dsh/test-utils';
import { syntheticResultText } from 'dsh-codec';
import { describe, expect, it } from 'vitest';
import { ALSO_PINNED, interopSkipReason, jsonlLines } from '../src/index.js';
import { expectDshCloser } from './expect-dsh-closer.js';
import { callEntry, childFilePattern, resumeOf, sourceSessionId } from './native-entries.js';
import { NATIVE_TOOLS, shellCall, startNativeSession } from './native-session.js';

const skip = interopSkipReason();
if (skip !== undefined) printSkip('interop native fork', skip);

type ForkJson = { session_id: string; file: string; format: string; parent_session: string; cut: number; resume: string[] };

/** What each tool's entry is called in the test names. */
const ENTRY = { 'claude-code': 'tool_use uuid', codex: 'function_call ordinal', pi: 'toolCall entry id' } as const;

/** Each tool at its pinned version, and at the other versions pinned for the range SPEC §26 claims (Codex 0.171, Claude Code 2.1.337). */
const RUNS = NATIVE_TOOLS.flatMap((tool) => [
  { tool, version: undefined, label: tool },
  ...(ALSO_PINNED[tool] ?? []).map((version) => ({ tool, version, label: `${tool} ${version}` })),
]);

describe.skipIf(skip !== undefined)('Claude Code, Codex and pi resume what dsh fork FILE writes (real tools, offline)', () => {
  for (const { tool, version, label } of RUNS) {
    it(`${label}: dsh fork FILE --at <${ENTRY[tool]}>, the resumed child sends dsh's forked result verbatim after the call, and no patch of its own`, async () => {
      const callId = `call_fork_${tool.replace('-', '_')}`;
      await using session = await startNativeSession(tool, {
        call: shellCall(tool, callId, 'echo parent-ran-it'),
        replies: ['Parent done.', 'Child goes on.'],
        ...(version === undefined ? {} : { version }),
      });
      const sourceBytes = await readFile(session.file);
      const lines = await jsonlLines(session.file);
      const parent = sourceSessionId(tool, lines);
      const entry = callEntry(tool, lines);

      const forked = await runDsh(['fork', session.file, '--at', entry.ref, '--json'], { cwd: session.home.cwd });
      expect(forked.code, forked.stderr).toBe(0);
      const result = JSON.parse(forked.stdout) as ForkJson;
      const resume = resumeOf(tool, { id: result.session_id, file: result.file });
      expect(result).toMatchObject({ format: tool, parent_session: parent, resume: resume.argv });
      expect(result.file).toMatch(childFilePattern(tool, result.session_id));
      expect(dirname(result.file)).toBe(dirname(session.file));
      expect(await readFile(session.file)).toEqual(sourceBytes);
      if (tool === 'claude-code') {
        // The chain to the tool_use as written (only sessionId changed), then dsh's result.
        const sourceRaw = sourceBytes.toString('utf8').trimEnd().split('\n');
        const inherited = (await readFile(result.file, 'utf8')).trimEnd().split('\n').slice(0, -1);
        for (const line of inherited)
          expect(sourceRaw).toContain(line.split(`"sessionId":"${result.session_id}"`).join(`"sessionId":"${parent}"`));
        expect(inherited.at(-1)).toContain(entry.ref);
      }
      if (tool === 'pi')
        expect((await jsonlLines(result.file))[0]).toMatchObject({ type: 'session', id: result.session_id, parentSession: session.file });

      const request = await session.resume(resume.ref, 'and now?');
      expectDshCloser(tool, request, callId, syntheticResultText('forked', true, 'side-effect'));
      // The parent's own result lies after the cut.
      expect(JSON.stringify(request)).not.toContain(tool === 'claude-code' ? 'parent-ran-it\\n"' : 'parent-ran-it\\n');
      expect(session.server.proxied).toEqual([]);
    });
  }
});
