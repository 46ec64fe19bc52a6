// SPEC §24 on JSONL: a fork's searches of the history before its cut — by type (a checkpoint, a config,
// the latest call) and for the files the calls name (SPEC §23's stale note) — read each sealed
// segment's index, not the segment (docs/decisions/2026-12-07-jsonl-forks-by-reference.md, "Segment
// indexes"). Each test damages every segment but the one holding the cut while it searches (a read of
// one would be CORRUPT) and compares the answers with the same searches over the log's events in memory.
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SealedSegment, SessionEvent } from 'dsh-codec';
import { findEvents, findFileCalls, openSessionStore, type FileCall, type Session, type SessionStore } from 'dsh-session';
import { makeTempDir, type TempDir } from '@dsh/test-utils';

/** Appends `turns` turns, each a `size`-byte user message and one call of `call(turn)`, in one batch (past 1 MiB the writer seals its lines). */
async function grow(
  session: Session,
  turns: number,
  call: (turn: number) => { name: string; args: object; effect: string },
  size = 200_000,
): Promise<void> {
  const first = session.events.filter((event) => event.type === 'turn/start').length + 1;
  for (let turn = first; turn < first + turns; turn += 1) {
    const { name, args, effect } = call(turn);
    const callId = `c${String(turn)}`;
    session.append('turn/start', { turn });
    session.append('user/message', {
      message: { id: `u${String(turn)}`, role: 'user', content: [{ type: 'text', text: 'x'.repeat(size) }] },
    });
    session.append('step/start', { turn, step: 1 });
    session.append('assistant/message', {
      turn,
      step: 1,
      message: {
        id: `a${String(turn)}`,
        role: 'assistant',
        content: [{ type: 'tool-call', id: callId, name, arguments: JSON.stringify(args) }],
      },
    });
    session.append('tool/call', { turn, step: 1, callId, name, arguments: JSON.stringify(args), effect });
    session.append('tool/result', {
      turn,
      step: 1,
      message: { id: `r${String(turn)}`, role: 'tool', callId, content: [{ type: 'text', text: 'done' }], isError: false },
    });
    session.append('step/end', { turn, step: 1 });
    session.append('turn/end', { turn, reason: { kind: 'completed' } });
  }
  await session.flush();
}

const segmentsOf = async (dir: string, id: string): Promise<SealedSegment[]> =>
  (JSON.parse((await readFile(join(dir, `${id}.jsonl`), 'utf8')).split('\n')[0] as string) as { segments?: SealedSegment[] }).segments ??
  [];

/** Overwrites every segment but `keep` with bytes of the same length that are not its own; returns how to put them back. */
async function damageAllBut(dir: string, keep: string): Promise<() => Promise<void>> {
  const saved = new Map<string, Buffer>();
  for (const name of await readdir(join(dir, '.segments'))) {
    if (name === keep || name.startsWith('.')) continue;
    const path = join(dir, '.segments', name);
    const bytes = await readFile(path);
    saved.set(path, bytes);
    await writeFile(path, Buffer.alloc(bytes.length, 0x7b));
  }
  return async () => {
    for (const [path, bytes] of saved) await writeFile(path, bytes);
  };
}

/** `calls` as a sorted list of distinct keys (the searches promise each distinct call, in no order). */
const distinct = (calls: readonly FileCall[]): string[] =>
  [...new Set(calls.map((call) => JSON.stringify([call.name, call.effect, call.paths])))].sort();

/** A call per turn: reads and writes of a few files, a listing of the cwd, a shell command, arguments that are not an object. */
const callOf = (turn: number): { name: string; args: object; effect: string } => {
  if (turn % 5 === 0) return { name: 'list_files', args: {}, effect: 'read-only' };
  if (turn % 7 === 0) return { name: 'bash', args: { command: `rm f${String(turn)}` }, effect: 'unknown' };
  if (turn % 3 === 0) return { name: 'Read', args: { file_path: `/w/src/r${String(turn % 4)}.ts` }, effect: 'read-only' };
  return { name: 'write_file', args: { path: `src/w${String(turn)}.ts`, content: 'c' }, effect: 'side-effect' };
};

describe('searches of a sealed history read the segments’ indexes', { timeout: 120_000 }, () => {
  let dir: TempDir;
  let store: SessionStore;
  let events: SessionEvent[];
  beforeEach(async () => {
    dir = await makeTempDir();
    store = await openSessionStore({ dir: dir.path });
  });
  afterEach(async () => {
    await store.close();
    await dir.remove();
  });

  /** A parent with calls in every turn, sealed into four segments, then two small turns of its own; its cut lies in the second segment. */
  async function sealedParent(): Promise<{ cut: number; segments: SealedSegment[] }> {
    const parent = await store.create({ id: 'parent', config: { cwd: '/w' } });
    for (let round = 0; round < 4; round += 1) await grow(parent, 6, callOf);
    await grow(parent, 2, callOf, 1_000);
    events = parent.events.slice();
    await parent.close();
    const segments = await segmentsOf(dir.path, 'parent');
    expect(segments).toHaveLength(4);
    return { cut: (segments[0] as SealedSegment).lines + 20, segments };
  }

  it('answers by type and for the calls’ files before and after a cut without reading any other segment', async () => {
    const { cut, segments } = await sealedParent();
    const restore = await damageAllBut(dir.path, (segments[1] as SealedSegment).digest);
    const reader = await openSessionStore({ dir: dir.path });
    try {
      const observed = await reader.observe('parent');
      expect(findEvents(observed, ['workspace/checkpoint'], { before: cut + 1, latest: 1 })).toEqual([]);
      expect(findEvents(observed, ['tool/call'], { before: cut + 1, latest: 1 })).toEqual(
        findEvents(events, ['tool/call'], { before: cut + 1, latest: 1 }),
      );
      expect(distinct(findFileCalls(observed, { before: cut + 1 }))).toEqual(distinct(findFileCalls(events, { before: cut + 1 })));
      expect(distinct(findFileCalls(observed, { after: cut }))).toEqual(distinct(findFileCalls(events, { after: cut })));
      // The index knows the file arguments as recorded, whatever the cwd: an absolute path, a listing without one.
      expect(distinct(findFileCalls(observed, { before: cut + 1 }))).toContain(JSON.stringify(['Read', 'read-only', ['/w/src/r3.ts']]));
      expect(distinct(findFileCalls(observed, { before: cut + 1 }))).toContain(JSON.stringify(['list_files', 'read-only', []]));
    } finally {
      await reader.close();
      await restore();
    }
  });

  it('the config before the cut is read from its one line, the rest of its segment unread', async () => {
    const { cut, segments } = await sealedParent();
    const first = join(dir.path, '.segments', (segments[0] as SealedSegment).digest);
    const bytes = await readFile(first);
    const start = bytes.lastIndexOf('\n', bytes.indexOf('"type":"session/config"')) + 1;
    const end = bytes.indexOf('\n', start) + 1;
    const restore = await damageAllBut(dir.path, (segments[1] as SealedSegment).digest);
    // Every byte of the first segment but the config's line is damaged too.
    const damaged = Buffer.alloc(bytes.length, 0x7b);
    bytes.copy(damaged, start, start, end);
    await writeFile(first, damaged);
    const reader = await openSessionStore({ dir: dir.path });
    try {
      const observed = await reader.observe('parent');
      const expected = findEvents(events, ['session/config'], { before: cut + 1, latest: 1 });
      expect(expected).toHaveLength(1);
      expect(findEvents(observed, ['session/config'], { before: cut + 1, latest: 1 })).toEqual(expected);
      // Any other event of that segment is read through the segment, which is verified whole: refused.
      expect(() => findEvents(observed, ['turn/start'], { before: (segments[0] as SealedSegment).lines })).toThrow(/digest/);
    } finally {
      await reader.close();
      await restore();
    }
  });

  it('a fork child held open answers for its inherited calls from the parent’s indexes and reads its own', async () => {
    const { cut, segments } = await sealedParent();
    const child = await store.fork('parent', { atSeq: cut, id: 'child' });
    try {
      await grow(child, 1, () => ({ name: 'write_file', args: { path: 'child-only.txt' }, effect: 'side-effect' }), 1_000);
      const expected = distinct(findFileCalls(child.events));
      expect(expected).toContain(JSON.stringify(['write_file', 'side-effect', ['child-only.txt']]));
      const restore = await damageAllBut(dir.path, (segments[1] as SealedSegment).digest);
      try {
        const observed = await store.observe('child');
        expect(distinct(findFileCalls(observed))).toEqual(expected);
        expect(distinct(findFileCalls(observed, { after: cut }))).toEqual([
          JSON.stringify(['write_file', 'side-effect', ['child-only.txt']]),
        ]);
      } finally {
        await restore();
      }
    } finally {
      await child.close();
    }
  });

  it('a missing or damaged index is rebuilt from its segment, never used', async () => {
    const { cut, segments } = await sealedParent();
    const indexes = join(dir.path, '.segment-index');
    expect((await readdir(indexes)).sort()).toEqual(segments.map((segment) => segment.digest).sort());
    const [first, second] = segments as [SealedSegment, SealedSegment];
    await rm(join(indexes, first.digest));
    // A damaged index still parses: it names another file than the segment's calls do.
    const damaged = (await readFile(join(indexes, second.digest), 'utf8')).replace('src/w', 'src/X');
    await writeFile(join(indexes, second.digest), damaged);
    const reader = await openSessionStore({ dir: dir.path });
    try {
      const observed = await reader.observe('parent');
      expect(distinct(findFileCalls(observed, { before: cut + 1 }))).toEqual(distinct(findFileCalls(events, { before: cut + 1 })));
      expect(distinct(findFileCalls(observed, { after: cut }))).toEqual(distinct(findFileCalls(events, { after: cut })));
    } finally {
      await reader.close();
    }
    // Both were written again from their segments.
    expect(await readFile(join(indexes, first.digest), 'utf8')).toContain(first.digest);
    expect(await readFile(join(indexes, second.digest), 'utf8')).not.toContain('src/X');
  });

  it('deleting the session removes its segments’ indexes with its segments', async () => {
    await sealedParent();
    await store.delete('parent');
    expect(await readdir(join(dir.path, '.segments'))).toEqual([]);
    expect(await readdir(join(dir.path, '.segment-index'))).toEqual([]);
  });
});
