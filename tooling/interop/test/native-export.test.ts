/**
 * SPEC §18 `dsh export --format claude-code|codex|pi` against the real tools: each writes a session
 * with a shell call and its result; import ∘ export keeps that file's model-visible history in every
 * format; dsh imports it into a JSONL data directory and exports it as that tool's file beside the
 * source; the tool's own resume (`claude --resume ID`, `codex exec resume ID`, `pi --session FILE`)
 * sends the exported call and its result exactly as the tool itself sent them in the original run.
 * The same through PostgreSQL, with the call cut open: native-export-stored-fork.test.ts.
 */
import { readFile } from 'node:fs/promises';
import { printSkip } from '@dsh/test-utils';
import { describe, expect, it } from 'vitest';
import { interopSkipReason, roundTrip } from '../src/index.js';
import { makeDshStore } from './dsh-store.js';
import { expectResultAfterCall } from './expect-dsh-closer.js';
import { childFilePattern, resumeOf } from './native-entries.js';
import { NATIVE_TOOLS, shellCall, startNativeSession } from './native-session.js';
import { sentResult } from './request-readers.js';

const skip = interopSkipReason();
if (skip !== undefined) printSkip('interop native export', skip);

describe.skipIf(skip !== undefined)('Claude Code, Codex and pi resume what dsh export writes (real tools, offline)', () => {
  for (const tool of NATIVE_TOOLS) {
    it(`${tool}: dsh export --format ${tool} of an imported session, the tool's resume sends the call and its result as the original run did; import ∘ export keeps the file's history in every format`, async () => {
      const callId = `call_export_${tool.replace('-', '_')}`;
      const call = shellCall(tool, callId, 'echo exported-result');
      const wire = tool === 'codex' ? 'responses' : 'anthropic';
      await using session = await startNativeSession(tool, { call, replies: ['Parent done.', 'Resumed from the export.'] });
      const text = await readFile(session.file, 'utf8');
      for (const target of NATIVE_TOOLS) {
        const { before, after } = roundTrip(text, target);
        expect(after, target).toEqual(before);
      }
      // What the tool itself sent after running the call: the oracle for the resumed export.
      const original = sentResult(
        wire,
        session.modelRequests().findLast((body) => sentResult(wire, body, callId).text !== undefined),
        callId,
      );
      expect(original.text).toContain('exported-result');
      // Claude Code sends a Bash result as the command's output alone.
      if (tool === 'claude-code') expect(original.text).toBe('exported-result');
      expect(original.isError ?? false).toBe(false);

      await using store = makeDshStore('jsonl', session.home);
      const exported = await store.exportBeside(await store.importFile(session.file), tool, session.file);
      const resume = resumeOf(tool, exported);
      expect(exported.file).toMatch(childFilePattern(tool, exported.id));
      expect(exported.stderr).toContain(resume.argv.join(' '));

      const request = await session.resume(resume.ref, 'again');
      const now = sentResult(wire, request, callId);
      if (tool === 'codex') expect(now.call).toMatchObject({ name: original.call?.name, arguments: original.call?.arguments });
      else expect(now.call).toMatchObject({ name: call.name, input: call.input });
      expectResultAfterCall(tool, request, callId, { text: original.text ?? '', isError: false });
      expect(session.server.proxied).toEqual([]);
    });
  }
});
