/**
 * SPEC §21 through the real bin: unnamed forks list as `<parent name> @ <cut>`, `dsh delete`, and a
 * session without a cwd never runs its tools in the process's current directory (NO_WORKSPACE).
 */
import { copyFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, type ModelServer, printJson, runDsh, spawnDsh, startModelServer, type TempDir, waitFor } from '@dsh/test-utils';

const V0_LOG = fileURLToPath(new URL('../examples/v0-legacy-session.jsonl', import.meta.url));

let data: TempDir;
let server: ModelServer | undefined;
const started: ChildProcess[] = [];
beforeEach(async () => {
  data = await makeTempDir('dsh-cli-sessions-');
});
afterEach(async () => {
  for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await server?.close();
  server = undefined;
  await data.remove();
});

async function script(name: string, responses: unknown[]): Promise<string> {
  const file = join(data.path, name);
  await writeFile(file, JSON.stringify(responses));
  return `scripted:${file}`;
}

describe('dsh sessions and dsh delete (SPEC §21)', () => {
  it('an unnamed fork lists as <parent name> @ <cut>; a named one under its own name', { timeout: 120_000 }, async () => {
    const dir = join(data.path, 'd');
    const parent = await printJson(['-p', 'hello', '--name', 'baseline', '--data', dir]);
    const unnamed = await printJson(['-p', 'try A', '--resume', 'baseline', '--fork-session', '--data', dir]);
    const named = await printJson(['-p', 'try B', '--resume', 'baseline', '--fork-session', '--name', 'plan-b', '--data', dir]);
    const listed = await runDsh(['sessions', '--data', dir]);
    expect(listed.code).toBe(0);
    const rowOf = (id: unknown) => listed.stdout.split('\n').find((line) => line.startsWith(String(id))) ?? '';
    expect(rowOf(unnamed.session_id)).toMatch(new RegExp(`^${String(unnamed.session_id)}\\s+baseline @ ${String(unnamed.forkCut)}\\s`));
    expect(rowOf(named.session_id)).toMatch(new RegExp(`^${String(named.session_id)}\\s+plan-b\\s`));
    expect(rowOf(parent.session_id)).toMatch(new RegExp(`^${String(parent.session_id)}\\s+baseline\\s`));
    // Exactly one row carries the bare name.
    expect(listed.stdout.split('\n').filter((line) => /\sbaseline\s{2}/.test(line))).toHaveLength(1);
  });

  it('dsh delete ID|NAME removes the session; refused SESSION_BUSY while another process holds it', { timeout: 120_000 }, async () => {
    const dir = join(data.path, 'd');
    const made = await printJson(['-p', 'hello', '--name', 'gone', '--data', dir]);
    let arrived: () => void = () => undefined;
    const requested = new Promise<void>((resolve) => (arrived = resolve));
    server = await startModelServer(() => {
      arrived();
      return 'hang';
    });
    const holder = spawnDsh(['-p', 'again', '--resume', 'gone', '--model', 'openai:gpt-test', '--data', dir], {
      env: { OPENAI_BASE_URL: `${server.origin}/v1`, OPENAI_API_KEY: 'sk-test' },
    });
    started.push(holder);
    const exited = new Promise((resolve) => holder.on('close', resolve));
    await requested;
    const busy = await runDsh(['delete', 'gone', '--data', dir]);
    expect(busy.code).toBe(1);
    expect(busy.stderr).toContain('SESSION_BUSY');
    holder.kill('SIGKILL');
    await exited;
    const deleted = await runDsh(['delete', 'gone', '--data', dir]);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stdout).toBe(`deleted ${String(made.session_id)}\n`);
    const shown = await runDsh(['show', String(made.session_id), '--data', dir]);
    expect(shown.stderr).toContain('SESSION_NOT_FOUND');
    const again = await runDsh(['delete', 'gone', '--data', dir]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('SESSION_NOT_FOUND');
  });
});

describe('a session without a cwd never runs its tools in the process cwd (SPEC §21)', () => {
  it('print mode refuses the write NO_WORKSPACE until --cwd gives one', { timeout: 120_000 }, async () => {
    const dir = join(data.path, 'd');
    const checkout = join(data.path, 'checkout');
    const workspace = join(data.path, 'workspace');
    await mkdir(dir);
    await mkdir(checkout);
    await mkdir(workspace);
    await copyFile(V0_LOG, join(dir, 'legacy.jsonl'));
    const write = { toolCalls: [{ name: 'write_file', arguments: { path: 'greet.js', content: 'hi' } }] };
    const model = await script('write.json', [write, { text: 'tried' }]);
    // A scripted model starts its file again in each process: the second run gets its own.
    const second = await script('write-again.json', [write, { text: 'wrote' }]);
    // Its only call refused, the turn is not success (SPEC §25).
    const run = await runDsh(['-p', 'write it', '--resume', 'legacy', '--model', model, '--output-format', 'json', '--data', dir], {
      cwd: checkout,
    });
    expect(run.code).toBe(1);
    const refused = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(refused).toMatchObject({ result: 'tried', is_error: true, errorCode: 'NO_WORKSPACE' });
    expect(await readdir(checkout)).toEqual([]);
    const shown = await runDsh(['show', 'legacy', '--json', '--data', dir]);
    const results = (JSON.parse(shown.stdout) as { events: { type: string; data: { error?: { code: string } } }[] }).events.filter(
      (event) => event.type === 'tool/result',
    );
    expect(results.at(-1)?.data.error?.code).toBe('NO_WORKSPACE');
    const allowed = await printJson(['-p', 'write it', '--resume', 'legacy', '--cwd', workspace, '--model', second, '--data', dir], {
      cwd: checkout,
    });
    expect(allowed.result).toBe('wrote');
    expect(await readFile(join(workspace, 'greet.js'), 'utf8')).toBe('hi');
    expect(await readdir(checkout)).toEqual([]);
  });

  it('dsh serve --workspace DIR runs a session created without config.cwd there, not in its own cwd', { timeout: 180_000 }, async () => {
    const dir = join(data.path, 'd');
    const checkout = join(data.path, 'checkout');
    const workspace = join(data.path, 'workspace');
    await mkdir(checkout);
    const model = await script('serve.json', [
      { toolCalls: [{ name: 'write_file', arguments: { path: 'src.txt', content: 'x' } }] },
      { text: 'done' },
    ]);
    const child = spawnDsh(['serve', '--port', '0', '--workspace', workspace, '--model', model, '--data', dir], { cwd: checkout });
    started.push(child);
    let out = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    await waitFor(`dsh serve to print its URL (${out})`, () => /serving http:\/\/127\.0\.0\.1:\d+/.test(out), 90_000);
    const url = (/serving (http:\/\/127\.0\.0\.1:\d+)/.exec(out) ?? [])[1] as string;
    const created = (await (
      await fetch(`${url}/api/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
    ).json()) as { sessionId: string };
    await fetch(`${url}/api/sessions/${created.sessionId}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'write' }),
    });
    await waitFor(
      'the turn to end',
      async () => {
        const observed = (await (await fetch(`${url}/api/sessions/${created.sessionId}`)).json()) as { events: { type: string }[] };
        return observed.events.some((event) => event.type === 'turn/end');
      },
      90_000,
    );
    expect(await readFile(join(workspace, 'src.txt'), 'utf8')).toBe('x');
    expect(await readdir(checkout)).toEqual([]);
  });
});
