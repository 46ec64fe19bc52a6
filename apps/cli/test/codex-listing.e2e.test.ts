/**
 * SPEC §26 "The tools' own listings" through the real bin: a Codex child written under a Codex
 * sessions folder comes with the command that has Codex record it (`codex archive ID && codex
 * unarchive ID`, naming `CODEX_HOME` when the folder is another home's); a child anywhere else, and a
 * Claude Code or pi child, with none. The real Codex runs the command in tooling/interop's
 * codex-listing.test.ts.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { codexTranscript, makeTempDir, runDsh, type TempDir } from '@dsh/test-utils';
import { afterEach, beforeEach, expect, it } from 'vitest';

let work: TempDir;
beforeEach(async () => {
  work = await makeTempDir('dsh-codex-listing-');
});
afterEach(async () => {
  await work.remove();
});

/** Writes a Codex rollout into `dir` and forks it at its first line with `HOME` = `home`. */
async function forkIn(dir: string, home: string) {
  await mkdir(dir, { recursive: true });
  const file = join(dir, 'rollout-2026-12-07T10-00-00-01a24fc2-0000-7000-8000-000000000001.jsonl');
  await writeFile(file, codexTranscript({ turns: 1 }).text);
  const result = await runDsh(['fork', file, '--at', 'seq:3'], { env: { HOME: home, CODEX_HOME: undefined } });
  expect(result.code, result.stderr).toBe(0);
  return { id: result.stdout.trim(), stderr: result.stderr };
}

const LIST = /list it in `codex resume` and --last: (.*)\n/;

it("a Codex child under the environment's Codex sessions folder is printed with codex archive ID && codex unarchive ID", async () => {
  const home = join(work.path, 'home');
  const { id, stderr } = await forkIn(join(home, '.codex', 'sessions', '2026', '12', '07'), home);
  expect(LIST.exec(stderr)?.[1]).toBe(`codex archive ${id} && codex unarchive ${id}`);
});

it("a Codex child under another home's .codex/sessions names that CODEX_HOME in the command", async () => {
  const other = join(work.path, 'other home');
  const { id, stderr } = await forkIn(join(other, '.codex', 'sessions', '2026', '12', '07'), join(work.path, 'home'));
  const codexHome = `'${join(other, '.codex')}'`;
  expect(LIST.exec(stderr)?.[1]).toBe(`CODEX_HOME=${codexHome} codex archive ${id} && CODEX_HOME=${codexHome} codex unarchive ${id}`);
});

it('a Codex child outside any Codex sessions folder gets no listing command (archiving would move it into Codex)', async () => {
  const { stderr } = await forkIn(join(work.path, 'copies'), join(work.path, 'home'));
  expect(stderr).toContain('resume it with: codex exec resume ');
  expect(stderr).not.toMatch(LIST);
});
