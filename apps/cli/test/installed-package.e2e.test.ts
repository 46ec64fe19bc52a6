/**
 * The published packages as a user gets them: every non-private workspace package is built and
 * packed (`pnpm pack` turns `workspace:*` into versions), the tarballs are installed with plain npm
 * into an empty folder outside the workspace, and `npx dsh` plus a small library script run there;
 * then installed globally (`npm i -g` into a temp prefix) for issue 15's "Done when" walk in tmux.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, waitFor, type TempDir } from '@dsh/test-utils';
import { HAS_TMUX, openPane, type Pane } from './tmux-pane.js';

const run = promisify(execFile);
const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** Every published (non-private) workspace package folder. */
function publishedPackages(): { dir: string; name: string; version: string }[] {
  return ['packages', 'apps'].flatMap((group) =>
    readdirSync(join(REPO_ROOT, group)).flatMap((folder) => {
      const manifest = join(REPO_ROOT, group, folder, 'package.json');
      if (!existsSync(manifest)) return [];
      const parsed = JSON.parse(readFileSync(manifest, 'utf8')) as { name: string; version: string; private?: boolean };
      return parsed.private === true ? [] : [{ dir: join(REPO_ROOT, group, folder), name: parsed.name, version: parsed.version }];
    }),
  );
}

const env = { ...process.env, DSH_HOME: undefined, NODE_OPTIONS: undefined, npm_config_loglevel: 'error' };
let work: TempDir;
let app: string;
let tarballFiles: string[] = [];

beforeAll(async () => {
  work = await makeTempDir('dsh-installed-');
  expect(work.path.startsWith(tmpdir())).toBe(true);
  const tarballs = join(work.path, 'tarballs');
  await run('pnpm', ['turbo', 'run', 'build', '--output-logs=errors-only', ...publishedPackages().map((pkg) => `--filter=${pkg.name}`)], {
    cwd: REPO_ROOT,
    env,
  });
  for (const pkg of publishedPackages()) await run('pnpm', ['pack', '--pack-destination', tarballs], { cwd: pkg.dir, env });
  app = join(work.path, 'app');
  await run('mkdir', ['-p', app]);
  await writeFile(join(app, 'package.json'), JSON.stringify({ name: 'try-dsh', private: true, type: 'module' }));
  tarballFiles = readdirSync(tarballs).map((file) => join(tarballs, file));
  await run('npm', ['install', '--no-audit', '--no-fund', ...tarballFiles], { cwd: app, env });
}, 900_000);

afterAll(async () => {
  await work.remove();
});

describe('the packed packages installed with npm outside the workspace', () => {
  it('run `npx dsh -p … --output-format json` from built JavaScript, with the real version', { timeout: 180_000 }, async () => {
    // No TypeScript runner is installed, so nothing can be running TypeScript.
    expect(existsSync(join(app, 'node_modules', 'tsx'))).toBe(false);
    const cli = publishedPackages().find((pkg) => pkg.name === 'dsh-cli');
    const version = await run('npx', ['dsh', '--version'], { cwd: app, env });
    expect(version.stdout.trim()).toBe(`dsh ${String(cli?.version)}`);
    const printed = await run('npx', ['dsh', '-p', 'hello', '--output-format', 'json', '--data', 'sessions'], { cwd: app, env });
    const result = JSON.parse(printed.stdout) as { session_id: string; result: string; is_error: boolean };
    expect(result.is_error).toBe(false);
    expect(result.result).toContain('keyless');

    // A library script reads what the CLI wrote, through the published entry points.
    await writeFile(
      join(app, 'script.js'),
      [
        "import { openSessionStore } from 'dsh-session';",
        "import { decodeJsonl, encodeJsonl } from 'dsh-codec';",
        "const store = await openSessionStore({ dir: 'sessions' });",
        `const { header, events } = await store.inspect(${JSON.stringify(result.session_id)});`,
        'const again = decodeJsonl(encodeJsonl({ header, events }));',
        // dsh-claude-agent-sdk as built: a transcript appended and loaded back through the same store.
        "const { createClaudeSessionStore } = await import('dsh-claude-agent-sdk');",
        'const claude = createClaudeSessionStore({ store });',
        "const key = { projectKey: '-app', sessionId: 'sdk-1' };",
        "await claude.append(key, [{ type: 'user', uuid: 'u1', message: { role: 'user', content: 'hi' } }]);",
        'const loaded = await claude.load(key);',
        'await claude.close();',
        'console.log(JSON.stringify({ id: again.header.id, types: again.events.map((event) => event.type), claude: loaded }));',
        'await store.close();',
      ].join('\n'),
    );
    const script = await run('node', ['script.js'], { cwd: app, env });
    const read = JSON.parse(script.stdout) as { id: string; types: string[]; claude: unknown };
    expect(read.id).toBe(result.session_id);
    expect(read.claude).toEqual([{ type: 'user', uuid: 'u1', message: { role: 'user', content: 'hi' } }]);
    expect(read.types).toContain('assistant/message');
  });
});

describe.skipIf(!HAS_TMUX)("issue 15's walk: the packed CLI installed globally with npm, used in a terminal", () => {
  let pane: Pane | undefined;
  afterAll(() => {
    pane?.close();
  });

  it('npm i -g, then `dsh`: talk, /branch, /fork 7, /tree, quit; `dsh --resume` the branch and talk on', { timeout: 300_000 }, async () => {
    const prefix = join(work.path, 'global');
    await run('npm', ['install', '--global', '--prefix', prefix, '--no-audit', '--no-fund', ...tarballFiles], { cwd: work.path, env });
    expect(existsSync(join(prefix, 'lib', 'node_modules', 'tsx'))).toBe(false);
    const home = join(work.path, 'home', '.dsh');
    const project = join(work.path, 'project');
    await mkdir(project, { recursive: true });
    // A shell as a newcomer has it: the global bin on PATH, dsh's data in DSH_HOME, no dsh checkout around.
    const shell = { cwd: project, env: { PATH: `${join(prefix, 'bin')}:${process.env.PATH ?? ''}`, DSH_HOME: home, NO_COLOR: '1' } };
    pane = openPane(`env -u NODE_OPTIONS sh -c 'echo "[dsh is $(command -v dsh)]"; exec dsh'`, shell);
    await waitFor(`the prompt\n${pane.screen()}`, () => pane?.screen().includes('Type a message') === true, 60_000);
    expect(pane.screen()).toContain(`[dsh is ${join(prefix, 'bin', 'dsh')}]`);
    await pane.type('list files', /turn 1 completed/);
    expect(pane.screen()).toMatch(/\[\d+\] ⚙ list_files \(read-only\)/);
    await pane.type('/branch side', /now in branch \S+ {2}"side"/);
    await pane.type('/fork 7', /forked \S+ at seq 7 .*\n.*now in fork \S+/);
    await pane.type('/tree', /@7 .*\*/);
    expect(pane.screen()).toMatch(/└─ side .*@\d+/);
    await pane.type('/exit', /\[exited 0\]/);
    expect(pane.screen()).toMatch(/bye — resume with: dsh --resume \S+/);
    // Three sessions in the default data directory: the first, its branch and the fork at 7.
    expect((await readdir(home)).filter((name) => name.endsWith('.jsonl'))).toHaveLength(3);
    pane.close();

    pane = openPane(`env -u NODE_OPTIONS dsh --resume side`, shell);
    await waitFor(`the resumed branch\n${pane.screen()}`, () => /session \S+ {2}"side"/.test(pane?.screen() ?? ''), 60_000);
    await pane.type('hello', /turn 2 completed/);
    await pane.type('/exit', /\[exited 0\]/);
  });
});
