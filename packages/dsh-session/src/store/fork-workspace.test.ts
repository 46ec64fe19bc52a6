import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FORKED_WORKSPACE_AT_CUT_SENTENCE,
  decodeJsonl,
  workspaceMovedNote,
  workspaceStaleNote,
  type SessionEvent,
  type SessionNoteData,
} from 'dsh-codec';
import { createMemoryStore, openSessionStore, SessionError, type SessionStore } from 'dsh-session';
import { buildForkSeed } from 'dsh-session/fork';
import { LogBuilder, makeTempDir } from '@dsh/test-utils';
import { storedLogText } from '../__fixtures__/stored-log-text.js';

// SPEC §23 "Honest to the model": what a fork child is told of its files lands in its seed, in the
// same atomic create as the closers, so no crash can leave a child without it.

/** A log whose last step is open: `write` started (side effect), `shell` declared, not started. */
function openTail(): SessionEvent[] {
  const log = new LogBuilder()
    .config({ cwd: '/repo' })
    .turnStart()
    .user('edit and publish')
    .stepStart()
    .assistant(undefined, [
      { id: 'w1', name: 'write' },
      { id: 's1', name: 'shell' },
    ])
    .toolCall('w1', { name: 'write', effect: 'side-effect' });
  return log.events;
}

const notes: SessionNoteData[] = [workspaceMovedNote('/repo', '/repo-worktrees/retry'), workspaceStaleNote(['src/a.ts', 'README.md'])];

describe.each([
  { kind: 'memory', make: () => Promise.resolve({ store: createMemoryStore(), dir: undefined }) },
  {
    kind: 'JSONL',
    make: async () => {
      const dir = await makeTempDir();
      return { store: await openSessionStore({ dir: dir.path }), dir };
    },
  },
])('store.fork with the workspace at the cut and notes ($kind)', ({ kind, make }) => {
  let store: SessionStore;
  let dir: Awaited<ReturnType<typeof makeTempDir>> | undefined;
  let source: SessionEvent[];
  beforeAll(async () => {
    ({ store, dir } = await make());
    source = openTail();
    await store.import({
      header: { format: 'dsh-session', version: 7, id: 'parent', createdAt: 0, inheritedEventCount: 0 },
      events: source,
    });
  });
  afterAll(async () => {
    await store.close();
    await dir?.remove();
  });

  it('stores exactly buildForkSeed(events, cut, { workspace, notes }): closers with the sentence, then the notes', async () => {
    const atSeq = source.length - 1;
    const child = await store.fork('parent', { atSeq, id: `child-${kind}`, workspace: 'at-cut', notes });
    expect(child.events).toEqual(buildForkSeed(source, atSeq, { workspace: 'at-cut', notes }));
    const own = child.events.slice(atSeq + 2);
    expect(own.map((event) => event.type)).toEqual(['tool/result', 'tool/result', 'step/end', 'turn/end', 'session/note', 'session/note']);
    for (const result of own.slice(0, 2)) expect(JSON.stringify(result.data)).toContain(` ${FORKED_WORKSPACE_AT_CUT_SENTENCE}"`);
    expect(own.slice(4).map((event) => event.data)).toEqual(notes);
    // Before any model request: the notes are inside what the constructor was given.
    expect(child.firstLiveSeq).toBe(atSeq + 2 + own.length);
    await child.close();
    if (dir !== undefined) {
      const stored = decodeJsonl(await storedLogText(dir.path, `child-${kind}`));
      expect(stored.events).toEqual(child.events);
    }
  });

  it('without workspace, the closers keep the V4 forked wording', async () => {
    const atSeq = source.length - 1;
    const child = await store.fork('parent', { atSeq, id: `plain-${kind}` });
    expect(child.events).toEqual(buildForkSeed(source, atSeq, source[atSeq]?.time));
    expect(JSON.stringify(child.events)).not.toContain(FORKED_WORKSPACE_AT_CUT_SENTENCE);
    await child.close();
  });

  it('refuses a note whose text is not canonical (INVALID_EVENT) and creates nothing', async () => {
    const bad: SessionNoteData = { ...workspaceStaleNote(['src/a.ts']), text: 'Files changed.' };
    const error = await store.fork('parent', { atSeq: 0, id: `bad-${kind}`, notes: [bad] }).catch((caught: unknown) => caught);
    expect(SessionError.is(error) && error.code).toBe('INVALID_EVENT');
    expect((error as Error).message).toContain('canonical workspace-stale text');
    expect((await store.list()).map((summary) => summary.id)).not.toContain(`bad-${kind}`);
    const lossy = { ...workspaceStaleNote(['src/a.ts']), more: Number.NaN } as SessionNoteData;
    const second = await store.fork('parent', { atSeq: 0, id: `lossy-${kind}`, notes: [lossy] }).catch((caught: unknown) => caught);
    expect(SessionError.is(second) && second.code).toBe('INVALID_EVENT');
  });
});
