/**
 * SPEC §25 — every code block of README.md and the package READMEs runs as written. Shell blocks run
 * with `bash -e` in a fresh git checkout (one commit, `notes.md`, apps/cli's `examples/`) with `dsh` on
 * PATH (this workspace's bin), its data in a temp DSH_HOME and ANTHROPIC_API_KEY pointing at a fake
 * Anthropic server on 127.0.0.1; TypeScript blocks type-check (strict, as the packages do) and run
 * there. A block whose info string says `fragment` (placeholders, a server that never exits, the npm
 * registry) is deliberately not run; `text` blocks are not code.
 */
import { spawn } from 'node:child_process';
import { chmod, cp, mkdir, readFile, readdir, symlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitText } from 'dsh-workspace';
import { makeTempDir, type ModelServer, startModelServer, streamedReply, type TempDir } from '@dsh/test-utils';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const DSH_BIN = join(ROOT, 'apps', 'cli', 'bin', 'dsh.js');
const CODE = ['sh', 'bash', 'ts'];
const BUILT = process.env.DSH_CLI_BUILT === '1';

type Block = { file: string; line: number; lang: string; fragment: boolean; code: string };

/** The fenced blocks of `file` (a path below the repository root), with their info strings. */
function blocksOf(file: string, text: string): Block[] {
  const blocks: Block[] = [];
  let open: { line: number; info: string[]; lines: string[] } | undefined;
  text.split('\n').forEach((line, index) => {
    if (!line.startsWith('```')) {
      open?.lines.push(line);
      return;
    }
    if (open === undefined) open = { line: index + 1, info: line.slice(3).trim().split(/\s+/).filter(Boolean), lines: [] };
    else {
      blocks.push({
        file,
        line: open.line,
        lang: open.info[0] ?? '',
        fragment: open.info.includes('fragment'),
        code: open.lines.join('\n'),
      });
      open = undefined;
    }
  });
  return blocks;
}

async function readmes(): Promise<string[]> {
  const found = ['README.md'];
  for (const group of ['packages', 'apps']) {
    for (const folder of await readdir(join(ROOT, group)))
      if (existsSync(join(ROOT, group, folder, 'README.md'))) found.push(`${group}/${folder}/README.md`);
  }
  return found;
}

const ALL: Block[] = [];
for (const file of await readmes()) ALL.push(...blocksOf(file, await readFile(join(ROOT, file), 'utf8')));
const RUN = ALL.filter((block) => CODE.includes(block.lang) && !block.fragment);

let dir: TempDir;
let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer(() => streamedReply('anthropic', { text: 'done' }));
});
afterAll(async () => {
  await server.close();
});

/** A fresh directory as a user's project: a git checkout with one commit, notes.md, examples/. */
async function project(): Promise<{ path: string; env: Record<string, string> }> {
  dir = await makeTempDir('dsh-acc-readme-');
  const path = join(dir.path, 'project');
  await mkdir(path);
  await writeFile(join(path, 'notes.md'), '- ship the release\n');
  await writeFile(join(path, 'package.json'), '{ "type": "module" }\n');
  await cp(join(ROOT, 'apps', 'cli', 'examples'), join(path, 'examples'), { recursive: true });
  const git = { gitDir: join(path, '.git'), workTree: path };
  // runGit starts git in the repository itself, so the folder exists before `init` fills it.
  await mkdir(git.gitDir);
  await gitText('git init', ['init', '-q'], git);
  await gitText('git add', ['add', '--all'], git);
  await gitText('git commit', ['-c', 'user.name=readme', '-c', 'user.email=readme@example.invalid', 'commit', '-qm', 'start'], git);
  const bin = join(dir.path, 'bin');
  await mkdir(bin);
  await writeFile(join(bin, 'dsh'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(DSH_BIN)} "$@"\n`);
  await chmod(join(bin, 'dsh'), 0o755);
  // TypeScript blocks resolve dsh's packages as an installed app would: from a node_modules beside them.
  await symlink(join(ROOT, 'tooling', 'acceptance', 'node_modules'), join(path, 'node_modules'));
  return {
    path,
    env: {
      PATH: `${bin}:${process.env.PATH ?? ''}`,
      HOME: dir.path,
      DSH_HOME: join(dir.path, '.dsh'),
      ANTHROPIC_API_KEY: 'sk-ant-readme',
      ANTHROPIC_BASE_URL: server.origin,
    },
  };
}

function run(command: string, args: string[], cwd: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const base = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !['DSH_HOME', 'NODE_OPTIONS', 'OPENAI_API_KEY', 'DSH_DATABASE_URL'].includes(key)),
  );
  const child = spawn(command, args, { cwd, env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      resolve({ code, output });
    });
  });
}

describe('§25 every README code block runs as written', () => {
  it('§25 every fenced block names its language; fragments are marked and the README says what that means', async () => {
    expect(ALL.filter((block) => block.lang === '').map((block) => `${block.file}:${String(block.line)}`)).toEqual([]);
    expect(RUN.length).toBeGreaterThan(8);
    expect(await readFile(join(ROOT, 'README.md'), 'utf8')).toMatch(/`fragment`/);
  });

  for (const block of RUN) {
    it(`§25 ${block.file}:${String(block.line)} (${block.lang}) runs as written`, { timeout: 240_000 }, async () => {
      const { path, env } = await project();
      try {
        if (block.lang === 'ts') {
          await writeFile(join(path, 'block.ts'), `${block.code}\n`);
          // Built (DSH_CLI_BUILT=1, as the check runs): the block type-checks against the packages' emitted
          // .d.ts and runs their dist/, as a user's code does; otherwise against and from their sources.
          const tsconfig = {
            extends: join(ROOT, 'tooling', 'tsconfig', 'base.json'),
            compilerOptions: { typeRoots: [join(ROOT, 'node_modules', '@types')], ...(BUILT ? { customConditions: [] } : {}) },
            files: ['block.ts'],
          };
          await writeFile(join(path, 'tsconfig.json'), JSON.stringify(tsconfig));
          const checked = await run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.'], path, env);
          expect(checked.code, checked.output).toBe(0);
          const tsx = pathToFileURL(join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
          const ran = await run(process.execPath, [...(BUILT ? [] : ['--conditions=@dsh/source']), '--import', tsx, 'block.ts'], path, env);
          expect(ran.code, ran.output).toBe(0);
        } else {
          const ran = await run('bash', ['-e', '-c', block.code], path, env);
          expect(ran.code, ran.output).toBe(0);
        }
      } finally {
        await dir.remove();
      }
    });
  }
});
