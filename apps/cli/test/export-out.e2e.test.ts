/**
 * SPEC §26 Output through the real bin: `dsh export --out DIR/` creates DIR and writes inside it;
 * `--out` at a tool's session root files the export in the folder that tool keeps the session's cwd
 * in; the printed resume line, run by `sh`, changes into that cwd (Claude Code), names the tool's
 * home when it is not the environment's, and hands the tool the file's id or path exactly — checked
 * with stand-in `claude`, `codex` and `pi` commands that report where and how they were run (the real
 * tools resume these files in tooling/interop's native-export.test.ts).
 */
import { execFile } from 'node:child_process';
import { chmod, mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { claudeCodeTranscript, makeTempDir, runDsh, type TempDir } from '@dsh/test-utils';
import { afterEach, beforeEach, expect, it } from 'vitest';

const run = promisify(execFile);

let work: TempDir;
let project: string;
let sessionId: string;
const env = (home: string) => ({ HOME: home, CLAUDE_CONFIG_DIR: undefined, CODEX_HOME: undefined, PI_CODING_AGENT_DIR: undefined });

beforeEach(async () => {
  work = await makeTempDir('dsh-export-out-');
  // A project folder a shell would split and expand unless the line quotes it.
  project = join(work.path, "my proj's $HOME");
  await mkdir(project);
  const source = join(work.path, 'source.jsonl');
  await writeFile(source, claudeCodeTranscript({ turns: 2 }).text.replaceAll('"/work/app"', JSON.stringify(project)));
  const imported = await dsh(['import', source, '--json']);
  sessionId = (JSON.parse(imported.stdout) as { sessions: { id: string }[] }[])[0]?.sessions[0]?.id ?? '';
});
afterEach(async () => {
  await work.remove();
});

async function dsh(args: readonly string[], home = join(work.path, 'home')) {
  const result = await runDsh([...args, '--data', join(work.path, 'data')], { cwd: work.path, env: env(home) });
  expect(result.code, `dsh ${args.join(' ')}: ${result.stderr}`).toBe(0);
  return result;
}

/** The `resume it with:` line dsh printed. */
function resumeLine(stderr: string): string {
  const line = /resume it with: (.*)\n/.exec(stderr)?.[1];
  expect(line, stderr).toBeDefined();
  return line ?? '';
}

/** Runs `line` with `sh` from `work`, the stand-in tools first on PATH: what the tool saw (cwd, argv, its home variable). */
async function runLine(line: string): Promise<{ cwd: string; argv: string[]; home: string }> {
  const bin = join(work.path, 'bin');
  await mkdir(bin, { recursive: true });
  for (const tool of ['claude', 'codex', 'pi']) {
    const script = `#!/bin/sh\npwd\nprintf '%s\\n' "\${CLAUDE_CONFIG_DIR:-}\${CODEX_HOME:-}"\nfor a in "$@"; do printf '%s\\n' "$a"; done\n`;
    await writeFile(join(bin, tool), script);
    await chmod(join(bin, tool), 0o755);
  }
  const { stdout } = await run('sh', ['-c', line], { cwd: work.path, env: { PATH: `${bin}:${process.env.PATH ?? ''}` } });
  const [cwd = '', home = '', ...argv] = stdout.trimEnd().split('\n');
  return { cwd, argv, home };
}

it('dsh export --out DIR/ on a folder that does not exist creates it and writes the file inside', async () => {
  const out = join(work.path, 'new folder', 'nested');
  const exported = await dsh(['export', sessionId, '--format', 'pi', '--out', `${out}/`]);
  const id = exported.stdout.trim();
  const names = await readdir(out);
  expect(names).toHaveLength(1);
  expect(names[0]).toMatch(new RegExp(`_${id}\\.jsonl$`));
  const line = resumeLine(exported.stderr);
  expect(await runLine(line)).toMatchObject({ argv: ['--session', join(out, names[0] ?? '')] });
});

it("dsh export --out at Claude Code's projects folder writes into the cwd's project folder; the line cds there and resumes the id", async () => {
  const root = join(work.path, 'home', '.claude', 'projects');
  await mkdir(root, { recursive: true });
  const exported = await dsh(['export', sessionId, '--format', 'claude-code', '--out', root]);
  const id = exported.stdout.trim();
  const folder = project.replace(/[^a-zA-Z0-9]/g, '-');
  expect(await readdir(join(root, folder))).toEqual([`${id}.jsonl`]);
  expect(await runLine(resumeLine(exported.stderr))).toEqual({ cwd: project, home: '', argv: ['--resume', id] });
});

it('dsh export --out at a Claude Code projects folder under another home names that home in the line', async () => {
  const root = join(work.path, 'other home', '.claude', 'projects');
  const exported = await dsh(['export', sessionId, '--format', 'claude-code', '--out', root]);
  const id = exported.stdout.trim();
  expect(await readdir(join(root, project.replace(/[^a-zA-Z0-9]/g, '-')))).toEqual([`${id}.jsonl`]);
  expect(await runLine(resumeLine(exported.stderr))).toEqual({
    cwd: project,
    home: join(work.path, 'other home', '.claude'),
    argv: ['--resume', id],
  });
});

it("dsh export --out at Codex's sessions folder writes into today's date folder and resumes the id", async () => {
  const root = join(work.path, 'home', '.codex', 'sessions');
  await mkdir(root, { recursive: true });
  const exported = await dsh(['export', sessionId, '--format', 'codex', '--out', root]);
  const id = exported.stdout.trim();
  const day = new Date().toISOString().slice(0, 10).split('-');
  const names = await readdir(join(root, ...day));
  expect(names).toHaveLength(1);
  expect(names[0]).toMatch(new RegExp(`^rollout-.*-${id}\\.jsonl$`));
  expect((await runLine(resumeLine(exported.stderr))).argv).toEqual(['exec', 'resume', id]);
});

it("dsh export --out at pi's sessions folder writes into the cwd's folder as pi names it and resumes that file", async () => {
  const root = join(work.path, 'home', '.pi', 'agent', 'sessions');
  await mkdir(root, { recursive: true });
  const exported = await dsh(['export', sessionId, '--format', 'pi', '--out', root]);
  const folder = `--${project.slice(1).replace(/[/\\:]/g, '-')}--`;
  const [name = ''] = await readdir(join(root, folder));
  expect(name).toContain(exported.stdout.trim());
  expect((await runLine(resumeLine(exported.stderr))).argv).toEqual(['--session', join(root, folder, name)]);
});

it('dsh export --out FILE/ where FILE is a file is WRITE_FAILED naming it, and writes nothing', async () => {
  const file = join(work.path, 'a file');
  await writeFile(file, 'x');
  const result = await runDsh(['export', sessionId, '--format', 'pi', '--out', `${file}/`, '--data', join(work.path, 'data')], {
    cwd: work.path,
    env: env(join(work.path, 'home')),
  });
  expect(result.code).toBe(1);
  expect(result.stderr).toContain(`WRITE_FAILED: Cannot make the folder ${file} for --out`);
  expect(result.stderr).not.toContain('INTERNAL');
});
