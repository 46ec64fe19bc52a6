// SPEC §24: a fork reads only what it uses. A child whose files are the workspace at the cut gets no
// stale-files note (SPEC §23), so the host does not observe the whole source for one.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '@dsh/test-utils';
import { createMemoryStore, type SessionStore } from 'dsh-session';
import { openWorkspaceStore } from 'dsh-workspace';
import { createHost } from 'dsh-host';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('host.fork with workspace at-cut', () => {
  it('does not observe the source for a stale-files note the child never gets', async () => {
    const dir = await makeTempDir();
    cleanups.push(() => dir.remove());
    const inner = createMemoryStore();
    const observed: string[] = [];
    const store: SessionStore = {
      ...inner,
      observe: (id) => {
        observed.push(id);
        return inner.observe(id);
      },
    };
    const host = createHost({ store, checkpoints: openWorkspaceStore({ dir: join(dir.path, '.workspaces.git') }) });
    cleanups.push(async () => {
      await host.close();
      await inner.close();
    });
    const parent = await host.query({ prompt: 'hello', title: 'parent' });
    const atCut = await host.fork(parent.sessionId, { workspace: 'at-cut' });
    expect(atCut.parentSession).toBe(parent.sessionId);
    expect(observed).toEqual([]);
    // Without at-cut the note is read from one observation of the source.
    await host.fork(parent.sessionId);
    expect(observed).toEqual([parent.sessionId]);
  });
});
