import { mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { claudeProjectKey } from 'dsh-claude-agent-sdk';

it('claudeProjectKey: the followed path with every character but ASCII letters and digits as -', () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'dsh key ü-')));
  try {
    symlinkSync(dir, `${dir}.link`);
    const expected = dir.replace(/[^a-zA-Z0-9]/g, '-');
    expect(claudeProjectKey(`${dir}.link`, {})).toBe(expected);
    expect(claudeProjectKey('/work/my app/ü', {})).toBe('-work-my-app--');
  } finally {
    rmSync(`${dir}.link`, { force: true });
    rmSync(dir, { recursive: true });
  }
});

it('claudeProjectKey: a key over 200 characters keeps 200 and adds the hash of the path', () => {
  const path = `/${'a'.repeat(250)}`;
  const key = claudeProjectKey(path, {});
  expect(key.slice(0, 201)).toBe(`-${'a'.repeat(199)}-`);
  expect(key).toMatch(/^-a{199}-[0-9a-z]+$/);
  expect(claudeProjectKey(`/${'a'.repeat(251)}`, {})).not.toBe(key);
});

it('claudeProjectKey: CLAUDE_CODE_PROJECT_DIR_NAME is the key only beside CLAUDE_CONFIG_DIR, and only a valid name', () => {
  expect(claudeProjectKey('/work/app', { CLAUDE_CONFIG_DIR: '/c', CLAUDE_CODE_PROJECT_DIR_NAME: 'team_1' })).toBe('team_1');
  expect(claudeProjectKey('/work/app', { CLAUDE_CODE_PROJECT_DIR_NAME: 'team_1' })).toBe('-work-app');
  expect(claudeProjectKey('/work/app', { CLAUDE_CONFIG_DIR: '/c', CLAUDE_CODE_PROJECT_DIR_NAME: 'NUL' })).toBe('-work-app');
  expect(claudeProjectKey('/work/app', { CLAUDE_CONFIG_DIR: '/c', CLAUDE_CODE_PROJECT_DIR_NAME: 'a/b' })).toBe('-work-app');
});
