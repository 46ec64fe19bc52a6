/**
 * SPEC §26 (Agent SDK users): `claudeProjectKey(dir)` names the `projectKey` the real Claude Agent
 * SDK (pinned, from the interop cache) asks a `sessionStore` for when it lists a directory's
 * sessions — `listSessions({ dir, sessionStore })` — for plain, relative, symlinked, missing, long
 * (over 200 characters, non-ASCII) directories, and with `CLAUDE_CODE_PROJECT_DIR_NAME` set.
 */
import { mkdir, symlink } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { claudeProjectKey } from 'dsh-claude-agent-sdk';
import { printSkip } from '@dsh/test-utils';
import { describe, expect, it } from 'vitest';
import { installTool, interopSkipReason, makeInteropHome } from '../src/index.js';

type Sdk = { listSessions(options: { dir: string; sessionStore: Record<string, unknown> }): Promise<unknown[]> };

const skip = interopSkipReason();
if (skip !== undefined) printSkip('claudeProjectKey against the real Claude Agent SDK', skip);

async function loadSdk(): Promise<Sdk> {
  const installed = await installTool('claude-agent-sdk');
  return (await import(pathToFileURL(join(installed.packageDir, 'sdk.mjs')).href)) as Sdk;
}

/** The projectKey the SDK hands the store when it lists `dir`'s sessions. */
async function sdkProjectKey(sdk: Sdk, dir: string): Promise<string> {
  const asked: string[] = [];
  const sessionStore = {
    append: () => Promise.resolve(),
    load: () => Promise.resolve(null),
    listSessions: (projectKey: string) => {
      asked.push(projectKey);
      return Promise.resolve([]);
    },
  };
  await sdk.listSessions({ dir, sessionStore });
  expect(asked, `the SDK asked the store once for ${dir}`).toHaveLength(1);
  return asked[0] ?? '';
}

describe.skipIf(skip !== undefined)("claudeProjectKey is the real Agent SDK's projectKey", () => {
  it('for plain, relative, symlinked, missing and long non-ASCII directories, and the CLAUDE_CODE_PROJECT_DIR_NAME override', async () => {
    const sdk = await loadSdk();
    await using home = await makeInteropHome();
    const spaced = join(home.home, "a dir with spaces, 'quotes' & ü");
    await mkdir(spaced);
    const link = join(home.home, 'link to it');
    await symlink(spaced, link);
    const long = join(home.home, ...Array.from({ length: 20 }, (_, index) => `ordner-ü-🙂-${String(index)}`));
    await mkdir(long, { recursive: true });
    const dirs = [
      home.cwd,
      spaced,
      link,
      relative(process.cwd(), spaced),
      join(home.home, 'missing', 'deep'),
      long,
      `${long}/../${'x'.repeat(190)}`,
    ];
    for (const dir of dirs) expect(claudeProjectKey(dir), dir).toBe(await sdkProjectKey(sdk, dir));
    expect(claudeProjectKey(long).length).toBeGreaterThan(200);

    const saved = { config: process.env.CLAUDE_CONFIG_DIR, name: process.env.CLAUDE_CODE_PROJECT_DIR_NAME };
    try {
      for (const [config, name] of [
        [join(home.home, '.claude'), 'team-project_1'],
        [join(home.home, '.claude'), 'con'],
        [join(home.home, '.claude'), 'not/a/name'],
        [undefined, 'team-project_1'],
      ] as const) {
        if (config === undefined) delete process.env.CLAUDE_CONFIG_DIR;
        else process.env.CLAUDE_CONFIG_DIR = config;
        process.env.CLAUDE_CODE_PROJECT_DIR_NAME = name;
        expect(claudeProjectKey(spaced), `${String(config)} ${name}`).toBe(await sdkProjectKey(sdk, spaced));
      }
      expect(claudeProjectKey(spaced, { CLAUDE_CONFIG_DIR: '/x', CLAUDE_CODE_PROJECT_DIR_NAME: 'team-project_1' })).toBe('team-project_1');
    } finally {
      if (saved.config === undefined) delete process.env.CLAUDE_CONFIG_DIR;
      else process.env.CLAUDE_CONFIG_DIR = saved.config;
      if (saved.name === undefined) delete process.env.CLAUDE_CODE_PROJECT_DIR_NAME;
      else process.env.CLAUDE_CODE_PROJECT_DIR_NAME = saved.name;
    }
  });
});
