import { existsSync, readFileSync } from 'node:fs';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTempDir } from '@dsh/test-utils';
import { describe, expect, it } from 'vitest';
import { claudeProjectDirName, findClaudeProjectFolder, physicalPath } from './claude-project-folder.js';

const LONG = `/home/me/${Array.from({ length: 8 }, (_, index) => `segment-${String(index).padStart(2, '0')}-of-a-deep-monorepo`).join('/')}`;

describe('claudeProjectDirName', () => {
  it('turns every character but ASCII letters and digits into -, one per UTF-16 unit', () => {
    // Folder names reported by Claude Code users for these directories (issues on anthropics/claude-code and readers of ~/.claude).
    expect(claudeProjectDirName('/Users/foo/Projects/Open Source/checkmate')).toBe('-Users-foo-Projects-Open-Source-checkmate');
    expect(claudeProjectDirName('/home/user/my_example_workspace')).toBe('-home-user-my-example-workspace');
    expect(claudeProjectDirName('/Users/foo/.local')).toBe('-Users-foo--local');
    expect(claudeProjectDirName('C:\\git\\cc-plus')).toBe('C--git-cc-plus');
    expect(claudeProjectDirName('/Users/username/Documents/Проект')).toBe('-Users-username-Documents-------');
    expect(claudeProjectDirName('/Users/me/git/my_repo')).toBe('-Users-me-git-my-repo');
    // An emoji is two UTF-16 units, as JavaScript's replace sees it.
    expect(claudeProjectDirName('/a/😀')).toBe('-a---');
  });

  it('matches the folder a real Claude Code transcript names for its own cwd', () => {
    const file = '/work/shared/data/transcripts/claude-code/spotter-4d5611e5-main.jsonl';
    if (!existsSync(file)) return;
    const text = readFileSync(file, 'utf8');
    const cwd = /"cwd":"([^"]+)"/.exec(text)?.[1] ?? '';
    const folder = /\.claude\/projects\/(-[A-Za-z0-9-]+)/.exec(text)?.[1];
    expect(cwd).toBe('/home/USER/projects/spotter-worktrees/spotter-dov');
    expect(claudeProjectDirName(cwd)).toBe(folder);
  });

  it('keeps the first 200 characters of a long name and appends the base-36 string hash of the path', () => {
    expect(LONG.length).toBe(248);
    // The hash computed apart (int32 h = h * 31 + unit over UTF-16 units, |h| in base 36).
    expect(claudeProjectDirName(LONG)).toBe(`${LONG.replace(/[^a-zA-Z0-9]/g, '-').slice(0, 200)}-wjj6eb`);
  });
});

describe('findClaudeProjectFolder', () => {
  it('finds the exact folder, a long one under another hash by its sessions cwd, and nothing else', async () => {
    await using dir = await makeTempDir();
    const projects = join(dir.path, 'projects');
    const prefix = LONG.replace(/[^a-zA-Z0-9]/g, '-').slice(0, 200);
    const session = (cwd: string) =>
      `${JSON.stringify({ type: 'user', cwd, uuid: 'u1', parentUuid: null, message: { role: 'user', content: 'hi' } })}\n`;
    await mkdir(join(projects, '-work-app'), { recursive: true });
    // Two long folders share the prefix (the native build names them with Bun.hash): only one holds this project's sessions.
    await mkdir(join(projects, `${prefix}-1abc`), { recursive: true });
    await writeFile(join(projects, `${prefix}-1abc`, 'a.jsonl'), session(`${LONG}-other`));
    await mkdir(join(projects, `${prefix}-2xyz`), { recursive: true });
    await writeFile(join(projects, `${prefix}-2xyz`, 'b.jsonl'), session(LONG));
    expect(await findClaudeProjectFolder(projects, '/work/app')).toBe(join(projects, '-work-app'));
    expect(await findClaudeProjectFolder(projects, LONG)).toBe(join(projects, `${prefix}-2xyz`));
    expect(await findClaudeProjectFolder(projects, '/work/other')).toBeUndefined();
    expect(await findClaudeProjectFolder(join(dir.path, 'missing'), '/work/app')).toBeUndefined();
  });

  it('resolves a symlinked directory to the physical path Claude Code saw', async () => {
    await using dir = await makeTempDir();
    await mkdir(join(dir.path, 'real'));
    await symlink(join(dir.path, 'real'), join(dir.path, 'link'));
    const real = await physicalPath(join(dir.path, 'real'));
    expect(await physicalPath(join(dir.path, 'link'))).toBe(real);
    expect(await physicalPath(join(dir.path, 'nowhere'))).toBe(join(dir.path, 'nowhere'));
  });
});
