/**
 * SPEC §23 through the real bin: `dsh serve --no-checkpoints` stores the choice (`checkpoints: false` in
 * `session/config`) in every session its HTTP API creates or forks, so a later `dsh -p --resume`
 * without the flag takes none either.
 */
import { type ChildProcess } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { makeTempDir, printJson, runDsh, spawnDsh, waitFor, type TempDir } from '@dsh/test-utils';

let data: TempDir;
const started: ChildProcess[] = [];
beforeEach(async () => {
  data = await makeTempDir('dsh-cli-serve-checkpoints-');
});
afterEach(async () => {
  for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await data.remove();
});

async function post(url: string, body: unknown): Promise<{ status: number; body: { sessionId: string } }> {
  const answer = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: answer.status, body: (await answer.json()) as { sessionId: string } };
}

it(
  'dsh serve --no-checkpoints stores checkpoints: false in the sessions its HTTP API creates and forks; a later dsh -p resume takes none',
  { timeout: 240_000 },
  async () => {
    const dir = join(data.path, 'data');
    const work = join(data.path, 'work');
    await mkdir(work);
    const first = await printJson(['-p', 'list files', '--cwd', work, '--model', 'keyless', '--data', dir]);
    const child = spawnDsh(['serve', '--port', '0', '--model', 'keyless', '--no-checkpoints', '--data', dir]);
    started.push(child);
    let out = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    await waitFor(`dsh serve to print its URL (${out})`, () => /serving http:\/\/127\.0\.0\.1:\d+/.test(out), 90_000);
    const url = (/serving (http:\/\/127\.0\.0\.1:\d+)/.exec(out) ?? [])[1] as string;

    const created = await post(`${url}/api/sessions`, { config: { cwd: work } });
    const forked = await post(`${url}/api/sessions/${String(first.session_id)}/fork`, {});
    expect([created.status, forked.status]).toEqual([201, 201]);
    child.kill('SIGTERM');
    await waitFor('dsh serve to exit', () => child.exitCode !== null || child.signalCode !== null, 60_000);

    for (const id of [created.body.sessionId, forked.body.sessionId]) {
      const shown = await runDsh(['show', id, '--json', '--data', dir]);
      const events = (JSON.parse(shown.stdout) as { events: { type: string; data: unknown }[] }).events;
      expect(events.findLast((event) => event.type === 'session/config')?.data, id).toMatchObject({ checkpoints: false });
      const resumed = await runDsh(['-p', 'list files', '--resume', id, '--output-format', 'events', '--data', dir], { cwd: work });
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stdout).toContain('"turn/start"');
      expect(resumed.stdout).not.toContain('"workspace/checkpoint"');
    }
    // The session the server only forked keeps its own choice (on).
    const parent = await runDsh(['-p', 'list files', '--resume', String(first.session_id), '--output-format', 'events', '--data', dir]);
    expect(parent.stdout).toContain('"workspace/checkpoint"');
  },
);
