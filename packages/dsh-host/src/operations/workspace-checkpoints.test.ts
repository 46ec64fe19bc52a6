/**
 * SPEC §23's checkpoint lifetimes through the host, with real git and files: a fork child keeps the
 * checkpoints it inherited when its parent is deleted; deleting the child too releases them.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '@dsh/test-utils';
import type { SessionEvent } from 'dsh-codec';
import { createMemoryStore } from 'dsh-session';
import { openWorkspaceStore } from 'dsh-workspace';
import { createScriptedModel } from 'dsh-agent';
import { createHost, demoTools } from 'dsh-host';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function treeExists(storeDir: string, tree: string): boolean {
  try {
    execFileSync('git', ['--git-dir', storeDir, 'cat-file', '-e', `${tree}^{tree}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const treesOf = (events: readonly SessionEvent[]) =>
  events.filter((event) => event.type === 'workspace/checkpoint').map((event) => (event.data as { tree: string }).tree);

describe('workspace checkpoints and the host', () => {
  it('a fork keeps the files of its inherited checkpoints when the parent is deleted; deleting it releases them', async () => {
    const dir = await makeTempDir();
    cleanups.push(() => dir.remove());
    const cwd = join(dir.path, 'project');
    await mkdir(cwd);
    await writeFile(join(cwd, 'a.txt'), 'at the cut\n');
    const checkpoints = openWorkspaceStore({ dir: join(dir.path, '.workspaces.git'), pruneGraceMs: 0 });
    const store = createMemoryStore();
    const model = createScriptedModel([
      { text: 'first turn' },
      { toolCalls: [{ name: 'write_file', arguments: { path: 'a.txt', content: 'after the cut\n' } }] },
      { text: 'written' },
    ]);
    const host = createHost({ store, model, tools: demoTools(), checkpoints });
    cleanups.push(async () => {
      await host.close();
      await store.close();
    });
    const parent = await host.query({ prompt: 'look', cwd });
    const child = await host.fork(parent.sessionId, {});
    const inherited = treesOf((await host.observe(child.sessionId)).events);
    expect(inherited).toHaveLength(1);
    await host.query({ prompt: 'change it', resume: parent.sessionId });
    await host.release(parent.sessionId);
    await host.release(child.sessionId);

    await host.delete(parent.sessionId);
    expect(treeExists(checkpoints.dir, inherited[0] ?? '')).toBe(true);
    expect((await checkpoints.listFiles(inherited[0] ?? '')).map((file) => file.path)).toEqual(['a.txt']);
    await host.delete(child.sessionId);
    expect(treeExists(checkpoints.dir, inherited[0] ?? '')).toBe(false);
  });
});
