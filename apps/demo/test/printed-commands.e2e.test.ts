/**
 * The commands the demo prints work as printed: the inspector's "fork exactly here" command and the
 * `dsh sessions …` line of the startup log are run through a real shell, with `dsh` on PATH being the
 * CLI's bin, against the running demo's data directory — then the demo itself must see the result.
 */
import { execFile } from 'node:child_process';
import { chmod, cp, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { makeTempDir, type TempDir } from '@dsh/test-utils';
import { api, openBrowser, startDemoProcess, type BrowserPage, type DemoProcess } from './demo-harness.js';

const run = promisify(execFile);
const DSH_BIN = fileURLToPath(new URL('../../cli/bin/dsh.js', import.meta.url));

type Row = { id: string; parentSession?: string; forkCut?: number };

let demo: DemoProcess;
let browser: BrowserPage;
let bin: TempDir;

/** Runs `line` in `sh -c` as a person pastes it, with `dsh` resolving to the CLI in this workspace. */
function shell(line: string) {
  return run('sh', ['-c', line], {
    cwd: bin.path,
    env: { ...process.env, PATH: `${bin.path}:${process.env.PATH ?? ''}`, DSH_HOME: join(bin.path, 'not-the-demo'), NODE_OPTIONS: '' },
    timeout: 90_000,
  });
}

beforeAll(async () => {
  bin = await makeTempDir('dsh-demo-shim-');
  await writeFile(join(bin.path, 'dsh'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(DSH_BIN)} "$@"\n`);
  await chmod(join(bin.path, 'dsh'), 0o755);
  demo = await startDemoProcess({ paceMs: 0 });
  browser = await openBrowser();
}, 90_000);

afterAll(async () => {
  await browser.close();
  await demo.stop();
  await bin.remove();
});

describe('commands the demo prints', () => {
  test("the inspector's fork command, pasted into a shell while the demo runs, forks exactly there and the demo lists the child", async () => {
    const { page } = browser;
    await page.goto(`${demo.url}#/s/tour-every-effect`);
    await page.getByRole('button', { name: 'Select event 14', exact: true }).click();
    const printed = await page.getByRole('complementary', { name: 'Inspector' }).getByLabel('Fork command').innerText();
    expect(printed).toBe(`dsh fork tour-every-effect --at 14 --data ${demo.dataDir}`);

    const { stdout, stderr } = await shell(printed);
    const childId = stdout.trim();
    expect(stderr).toContain('forked tour-every-effect at seq 14');
    const rows = (await api<{ sessions: Row[] }>(demo.url, '/api/sessions')).sessions;
    expect(rows.find((row) => row.id === childId)).toMatchObject({ parentSession: 'tour-every-effect', forkCut: 14 });

    // The page picks the CLI's fork up too: it opens with the inherited prefix and its closers.
    await page.goto(`${demo.url}#/s/${encodeURIComponent(childId)}`);
    await expect
      .poll(() => page.getByRole('list', { name: 'Transcript' }).innerText())
      .toContain('Forked from tour-every-effect at seq 14');
    expect(browser.errors).toEqual([]);
  }, 120_000);

  test('the startup line `dsh sessions --data DIR` lists the sessions the demo serves', async () => {
    await expect.poll(() => demo.output()).toContain('Press Ctrl-C to stop.');
    const line = /CLI: +(dsh sessions .+?) {3}\(/.exec(demo.output())?.[1];
    expect(line).toBe(`dsh sessions --data ${demo.dataDir}`);
    const { stdout } = await shell(line ?? '');
    const served = (await api<{ sessions: Row[] }>(demo.url, '/api/sessions')).sessions.map((row) => row.id);
    expect(served.length).toBeGreaterThan(5);
    for (const id of served) expect(stdout).toContain(id);
  }, 120_000);
});

describe("a data directory in the demo's old layout (sessions in DIR/sessions/)", () => {
  let old: DemoProcess;
  afterAll(async () => {
    await old.stop();
  });

  test('is still served where it is, says so, and its printed CLI line points at DIR/sessions and works', async () => {
    old = await startDemoProcess({
      paceMs: 0,
      prepare: async (dataDir) => {
        await mkdir(dataDir);
        await cp(fileURLToPath(new URL('../recordings/sessions', import.meta.url)), join(dataDir, 'sessions'), { recursive: true });
      },
    });
    // The URL line comes first; the rest of the start-up text may follow in later chunks.
    await expect.poll(() => old.output()).toContain('Press Ctrl-C to stop.');
    expect(old.output()).toContain(`old demo layout: sessions are read from ${join(old.dataDir, 'sessions')}`);
    const served = (await api<{ sessions: Row[] }>(old.url, '/api/sessions')).sessions.map((row) => row.id);
    expect(served).toContain('tour-every-effect');
    const line = /CLI: +(dsh sessions .+?) {3}\(/.exec(old.output())?.[1];
    expect(line).toBe(`dsh sessions --data ${join(old.dataDir, 'sessions')}`);
    const { stdout } = await shell(line ?? '');
    for (const id of served) expect(stdout).toContain(id);
  }, 120_000);
});
