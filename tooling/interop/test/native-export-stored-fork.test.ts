/**
 * SPEC §18 `dsh export` of a stored dsh session cut mid-call, on a JSONL data directory and on
 * PostgreSQL, against the real tools: Claude Code, Codex and pi each write a session with a shell
 * call; `dsh import` stores it; `dsh fork ID --at <the call's seq>` stores a child whose call dsh
 * closed with its forked closer; `dsh export CHILD --format <tool>` writes the tool's file beside the
 * tool's own; the tool's resume then sends the call followed by dsh's stored closer text verbatim,
 * marked as an error where the wire has a flag, and none of the tool's own patches. The export of
 * an imported session with its result: native-export.test.ts.
 */
import { printSkip } from '@dsh/test-utils';
import { syntheticResultText } from 'dsh-codec';
import { describe, expect, it } from 'vitest';
import { interopSkipReason } from '../src/index.js';
import { DSH_STORES, makeDshStore } from './dsh-store.js';
import { expectDshCloser } from './expect-dsh-closer.js';
import { childFilePattern, resumeOf } from './native-entries.js';
import { NATIVE_TOOLS, shellCall, startNativeSession } from './native-session.js';

const skip = interopSkipReason();
if (skip !== undefined) printSkip('interop export of a stored fork', skip);

describe.skipIf(skip !== undefined)('the real tools resume the export of a dsh session forked at an open call (offline)', () => {
  for (const { kind, skip: noStore } of DSH_STORES) {
    for (const tool of NATIVE_TOOLS) {
      it.skipIf(noStore)(
        `${tool} on a ${kind} store: dsh fork ID --at <call seq>, dsh export CHILD --format ${tool}, the resume sends dsh's stored closer verbatim after the call`,
        async () => {
          const callId = `call_stored_${tool.replace('-', '_')}`;
          await using session = await startNativeSession(tool, {
            call: shellCall(tool, callId, 'echo parent-ran-it'),
            replies: ['Parent done.', 'Child goes on.'],
          });
          await using store = makeDshStore(kind, session.home);
          const id = await store.importFile(session.file);

          const fork = await store.forkAtCall(id, callId);
          expect(fork.closer).toBe(syntheticResultText('forked', true, 'side-effect'));
          expect(fork.closerError).toMatchObject({ code: 'TOOL_OUTCOME_UNKNOWN' });
          const exported = await store.exportBeside(fork.child, tool, session.file);
          const resume = resumeOf(tool, exported);
          expect(exported.file).toMatch(childFilePattern(tool, exported.id));
          expect(exported.stderr).toContain(`resume it with: ${resume.argv.join(' ')}`);

          const request = await session.resume(resume.ref, 'and now?');
          expectDshCloser(tool, request, callId, fork.closer);
          expect(JSON.stringify(request)).not.toContain('parent-ran-it\\n'); // the parent's own result lies after the cut
          expect(session.server.proxied).toEqual([]);
        },
      );
    }
  }
});
