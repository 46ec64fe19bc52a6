// SPEC §24 with SPEC §23: the stale-files note of a fork of a long JSONL history costs what the cut
// costs. Its searches (the checkpoint and config at the cut, the files the calls before and after it
// name) read the sealed segments' indexes; only the segments holding the cut, the config and the
// latest turn are read. The other segments are damaged while the host forks (a read of one is CORRUPT), and
// the note is the one a fork of the intact parent gets.
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '@dsh/test-utils';
import { workspaceStaleNoteText, type SealedSegment, type SessionEvent } from 'dsh-codec';
import { openSessionStore, type Session } from 'dsh-session';
import { openWorkspaceStore } from 'dsh-workspace';
import { createHost } from 'dsh-host';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Appends `turns` turns, each a 200 kB user message and a `write_file` of `pathOf(turn)`, in one batch (the writer seals past 1 MiB). */
async function grow(session: Session, turns: number, pathOf: (turn: number) => string): Promise<void> {
  const first = session.events.filter((event) => event.type === 'turn/start').length + 1;
  for (let turn = first; turn < first + turns; turn += 1) {
    const callId = `c${String(turn)}`;
    const args = JSON.stringify({ path: pathOf(turn), content: 'text' });
    session.append('turn/start', { turn });
    session.append('user/message', {
      message: { id: `u${String(turn)}`, role: 'user', content: [{ type: 'text', text: 'x'.repeat(200_000) }] },
    });
    session.append('step/start', { turn, step: 1 });
    session.append('assistant/message', {
      turn,
      step: 1,
      message: {
        id: `a${String(turn)}`,
        role: 'assistant',
        content: [{ type: 'tool-call', id: callId, name: 'write_file', arguments: args }],
      },
    });
    session.append('tool/call', { turn, step: 1, callId, name: 'write_file', arguments: args, effect: 'side-effect' });
    session.append('tool/result', {
      turn,
      step: 1,
      message: { id: `r${String(turn)}`, role: 'tool', callId, content: [{ type: 'text', text: 'ok' }], isError: false },
    });
    session.append('step/end', { turn, step: 1 });
    session.append('turn/end', { turn, reason: { kind: 'completed' } });
  }
  await session.flush();
}

/** Overwrites every segment but `keep` with bytes of the same length that are not its own; returns how to put them back. */
async function damageAllBut(dir: string, keep: readonly string[]): Promise<() => Promise<void>> {
  const saved = new Map<string, Buffer>();
  for (const name of await readdir(join(dir, '.segments'))) {
    if (keep.includes(name) || name.startsWith('.')) continue;
    const path = join(dir, '.segments', name);
    const bytes = await readFile(path);
    saved.set(path, bytes);
    await writeFile(path, Buffer.alloc(bytes.length, 0x7b));
  }
  return async () => {
    for (const [path, bytes] of saved) await writeFile(path, bytes);
  };
}

describe('the stale-files note of a fork of a sealed history', { timeout: 120_000 }, () => {
  it('reads the cut’s segment and the config’s, not the history, and names what a fork of the intact parent names', async () => {
    const dir = await makeTempDir();
    cleanups.push(() => dir.remove());
    const dataDir = join(dir.path, 'data');
    const store = await openSessionStore({ dir: dataDir });
    const host = createHost({ store, checkpoints: openWorkspaceStore({ dir: join(dir.path, '.workspaces.git') }) });
    cleanups.push(async () => {
      await host.close();
      await store.close();
    });
    // a.txt is written in the second segment, before the cut, and again in the fourth, after it.
    const parent = await store.create({ id: 'parent', config: { cwd: join(dir.path, 'project') } });
    await grow(parent, 6, (turn) => `notes/t${String(turn)}.md`);
    await grow(parent, 6, (turn) => (turn === 8 ? 'a.txt' : `notes/t${String(turn)}.md`));
    await grow(parent, 6, (turn) => `notes/t${String(turn)}.md`);
    await grow(parent, 6, (turn) => (turn === 22 ? 'a.txt' : `notes/t${String(turn)}.md`));
    await grow(parent, 6, (turn) => `notes/t${String(turn)}.md`);
    const events: SessionEvent[] = parent.events.slice();
    await parent.close();
    const manifest = JSON.parse((await readFile(join(dataDir, 'parent.jsonl'), 'utf8')).split('\n')[0] as string) as {
      segments: SealedSegment[];
    };
    expect(manifest.segments).toHaveLength(5);
    const [first, second] = manifest.segments as [SealedSegment, SealedSegment];
    const last = manifest.segments.at(-1) as SealedSegment;
    const cut = events.findLast((event) => event.type === 'turn/end' && event.seq < first.lines + second.lines)?.seq as number;

    // Kept: the config's segment, the cut's and the latest turn's (every fork reads that one, to close an open turn).
    const restore = await damageAllBut(dataDir, [first.digest, second.digest, last.digest]);
    let note: unknown;
    try {
      const child = await host.fork('parent', { atSeq: cut, id: 'child' });
      note = (await host.observe(child.sessionId)).events.find((event) => event.type === 'session/note')?.data;
    } finally {
      await restore();
    }
    expect(note).toEqual({ kind: 'workspace-stale', text: workspaceStaleNoteText(['a.txt']), paths: ['a.txt'] });
    const intact = await host.fork('parent', { atSeq: cut, id: 'child-of-intact' });
    expect((await host.observe(intact.sessionId)).events.find((event) => event.type === 'session/note')?.data).toEqual(note);
  });
});
