/**
 * SPEC §26 "The tools' own listings" against the real Codex: Codex lists threads from its SQLite
 * state database, so a child dsh writes beside a rollout is not what `codex exec resume --last`
 * resumes (it resumes the parent). `dsh fork FILE` prints the command that has Codex record the
 * child itself (`codex archive ID && codex unarchive ID`); run as printed, `--last` resumes the child
 * and sends dsh's forked result after the call.
 */
import { readFile, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { printSkip, runDsh } from '@dsh/test-utils';
import { syntheticResultText } from 'dsh-codec';
import { describe, expect, it } from 'vitest';
import { installTool, interopSkipReason, jsonlLines, pinnedVersions, runBin, runTool } from '../src/index.js';
import { expectDshCloser } from './expect-dsh-closer.js';
import { callEntry } from './native-entries.js';
import { shellCall, startNativeSession, type NativeSession } from './native-session.js';

const skip = interopSkipReason();
if (skip !== undefined) printSkip('interop Codex listing', skip);

const FLAGS = ['--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox'];

/** `codex exec resume --last PROMPT` in the project: the first model request it sent. */
async function resumeLast(session: NativeSession, prompt: string): Promise<Record<string, unknown>> {
  const before = session.modelRequests().length;
  const version = session.version === undefined ? {} : { version: session.version };
  const run = await runTool('codex', ['exec', ...FLAGS, 'resume', '--last', prompt], {
    cwd: session.home.cwd,
    env: session.env,
    ...version,
  });
  expect(run.code, run.stderr).toBe(0);
  return session.modelRequests()[before] ?? {};
}

describe.skipIf(skip !== undefined)("a Codex child appears in Codex's own listing (real Codex, offline)", () => {
  // Every pinned Codex (SPEC §26 claims 0.169–0.171).
  for (const version of pinnedVersions('codex')) {
    it(`Codex ${version}: dsh fork FILE prints the command that lists the child; run as printed, codex exec resume --last resumes the child with dsh's result`, async () => {
      const callId = 'call_listing_codex';
      await using session = await startNativeSession('codex', {
        call: shellCall('codex', callId, 'echo parent-ran-it'),
        replies: ['Parent done.', 'The child goes on.'],
        version,
      });
      const entry = callEntry('codex', await jsonlLines(session.file));
      const dsh = (args: string[]) => runDsh(args, { cwd: session.home.cwd, env: { CODEX_HOME: session.env.CODEX_HOME ?? '' } });
      const forked = await dsh(['fork', session.file, '--at', entry.ref]);
      expect(forked.code, forked.stderr).toBe(0);
      const child = forked.stdout.trim();
      const line = /list it in `codex resume` and --last: (.*)\n/.exec(forked.stderr)?.[1];
      expect(line, forked.stderr).toBe(`codex archive ${child} && codex unarchive ${child}`);

      const { bin = '' } = await installTool('codex', version);
      const listed = await runBin('/bin/sh', ['-c', line ?? ''], {
        cwd: session.home.cwd,
        env: { ...session.env, PATH: `${dirname(bin)}:${session.env.PATH ?? ''}` },
      });
      expect(listed.code, listed.stderr).toBe(0);
      // Archived and back: the child is where dsh wrote it.
      const childFile = /into (.+\.jsonl)\n/.exec(forked.stderr)?.[1] ?? '';
      const childSize = (await stat(childFile)).size;
      const parentBytes = await readFile(session.file);
      const request = await resumeLast(session, 'and now?');
      expectDshCloser('codex', request, callId, syntheticResultText('forked', true, 'side-effect'));
      // The parent was not the thread resumed: its rollout is as it was.
      expect(await readFile(session.file)).toEqual(parentBytes);
      expect((await stat(childFile)).size).toBeGreaterThan(childSize);
      expect(session.server.proxied).toEqual([]);
    });
  }

  it('dsh fork FILE --json names the same commands as argv lists (index)', async () => {
    await using session = await startNativeSession('codex', {
      call: shellCall('codex', 'call_listing_json', 'echo x'),
      replies: ['Done.'],
    });
    const entry = callEntry('codex', await jsonlLines(session.file));
    const forked = await runDsh(['fork', session.file, '--at', entry.ref, '--json'], {
      cwd: session.home.cwd,
      env: { CODEX_HOME: session.env.CODEX_HOME ?? '' },
    });
    const result = JSON.parse(forked.stdout) as { session_id: string; index?: string[][] };
    expect(result.index).toEqual([
      ['codex', 'archive', result.session_id],
      ['codex', 'unarchive', result.session_id],
    ]);
  });
});
