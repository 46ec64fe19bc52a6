/**
 * SPEC §23 through the real bin: `dsh serve` hands the host the data folder's worktree maker, so
 * `POST /api/sessions/:id/fork` with `worktree: true` gives the child its own git worktree holding the
 * files at the cut, and `DELETE` of that child removes it again.
 */
import { execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { makeTempDir, printJson, spawnDsh, waitFor, type TempDir } from '@dsh/test-utils';

let data: TempDir;
const started: ChildProcess[] = [];
beforeEach(async () => {
  data = await makeTempDir('dsh-cli-serve-worktree-');
});
afterEach(async () => {
  for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await data.remove();
});

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { encoding: 'utf8' });
}

it(
  'dsh serve: POST …/fork with worktree: true makes the child a worktree at the cut; DELETE removes it',
  { timeout: 240_000 },
  async () => {
    const dir = join(data.path, 'data');
    const repo = join(data.path, 'repo');
    await mkdir(repo);
    execFileSync('git', ['init', '-q', '-b', 'main', repo]);
    await writeFile(join(repo, 'a.txt'), 'committed\n');
    git(repo, 'add', 'a.txt');
    git(repo, 'commit', '-q', '-m', 'one');
    const first = await printJson(['-p', 'write a.txt: at the cut', '--cwd', repo, '--model', 'keyless', '--name', 'base', '--data', dir]);
    await printJson(['-p', 'write a.txt: after the cut', '--resume', 'base', '--model', 'keyless', '--data', dir]);
    expect(await readFile(join(repo, 'a.txt'), 'utf8')).toBe('after the cut');

    const child = spawnDsh(['serve', '--port', '0', '--model', 'keyless', '--data', dir]);
    started.push(child);
    let out = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    await waitFor(`dsh serve to print its URL (${out})`, () => /serving http:\/\/127\.0\.0\.1:\d+/.test(out), 90_000);
    const url = (/serving (http:\/\/127\.0\.0\.1:\d+)/.exec(out) ?? [])[1] as string;
    const sessionId = String(first.session_id);
    const observed = (await (await fetch(`${url}/api/sessions/${sessionId}`)).json()) as { events: { seq: number; type: string }[] };
    const cut = observed.events.find((event) => event.type === 'turn/end')?.seq;

    const forked = await fetch(`${url}/api/sessions/${sessionId}/fork`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ atSeq: cut, title: 'at-cut', worktree: true }),
    });
    const body = (await forked.json()) as { sessionId: string; worktree: { workspace: string; dir: string; branch: string } };
    expect([forked.status, body.worktree.workspace, body.worktree.branch]).toEqual([201, 'checkpoint', 'dsh/at-cut']);
    expect(body.worktree.dir).toBe(join(dir, 'worktrees', 'at-cut'));
    expect(await readFile(join(body.worktree.dir, 'a.txt'), 'utf8')).toBe('at the cut');
    expect(await readFile(join(repo, 'a.txt'), 'utf8')).toBe('after the cut');

    const deleted = await fetch(`${url}/api/sessions/${body.sessionId}`, { method: 'DELETE' });
    expect(deleted.status).toBeLessThan(300);
    expect(existsSync(body.worktree.dir)).toBe(false);
    expect(git(repo, 'for-each-ref', 'refs/heads/dsh/at-cut')).toBe('');
  },
);
