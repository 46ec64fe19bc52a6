import { readFileSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeJsonl, encodeJsonl } from 'dsh-codec';
import { openSessionStore, SessionError, type SessionStore } from 'dsh-session';
import { makeTempDir, type TempDir } from '@dsh/test-utils';

// The codec's golden fixtures: one log of each released version, in LF, CRLF and CR-only.
const fixtureDir = join(import.meta.dirname, '..', '..', '..', 'dsh-codec', 'src', '__fixtures__');
const fixtures = ['v0-session', 'v1-session', 'v2-fork-child', 'v3-session', 'v4-nested-fork', 'v5-reasoning'];
const kinds = ['lf', 'crlf', 'cr'] as const;

function fixture(name: string, kind: (typeof kinds)[number]): string {
  return readFileSync(join(fixtureDir, kind === 'lf' ? `${name}.jsonl` : `line-endings/${name}.${kind}.jsonl`), 'utf8');
}

/** The id a fixture is stored under: its header's, or for headerless V0 the one its events are read as. */
function idOf(name: string): string {
  return name === 'v0-session' ? 'legacy-v0' : decodeJsonl(fixture(name, 'lf')).header.id;
}

async function failure(promise: Promise<unknown>): Promise<SessionError> {
  try {
    await promise;
  } catch (error) {
    if (SessionError.is(error)) return error;
    throw error;
  }
  throw new Error('expected a SessionError');
}

describe('a JSONL store reading logs with legacy line endings', () => {
  let dir: TempDir;
  let store: SessionStore;
  const file = (id: string) => join(dir.path, `${id}.jsonl`);
  const backups = async (id: string) => (await readdir(dir.path)).filter((name) => name.startsWith(`${id}.jsonl.`)).sort();
  beforeEach(async () => {
    dir = await makeTempDir();
    store = await openSessionStore({ dir: dir.path });
  });
  afterEach(async () => {
    await store.close();
    await dir.remove();
  });

  describe.each(fixtures)('%s', (name) => {
    const id = idOf(name);

    it.each(kinds)(
      'opens the %s file to the same events as the LF file, then writes LF, keeping the original as a backup',
      async (kind) => {
        const reference = decodeJsonl(fixture(name, 'lf'), { sessionId: id });
        const original = fixture(name, kind);
        await writeFile(file(id), original);
        expect((await store.inspect(id)).events).toEqual(reference.events);
        const session = await store.open(id);
        expect(session.events.slice(0, reference.events.length)).toEqual(reference.events);
        session.append('session/title', { title: 'after the rewrite' });
        await session.flush();
        const written = await readFile(file(id), 'utf8');
        expect(written.includes('\r')).toBe(false);
        expect(written).toBe(encodeJsonl({ header: session.header, events: session.events }));
        // Any file rewritten (an older version, or CR line endings) keeps the original, byte for byte.
        const rewritten = kind !== 'lf' || reference.sourceVersion !== 6;
        const kept = await backups(id);
        expect(kept).toHaveLength(rewritten ? 1 : 0);
        if (rewritten) {
          expect(kept[0]).toMatch(new RegExp(`^${id}\\.jsonl\\.bak-[0-9]{8}T[0-9]{9}Z$`));
          expect(await readFile(join(dir.path, kept[0] as string), 'utf8')).toBe(original);
        }
        await session.close();
        // Now plain LF V6: the next open appends, rewriting (and backing up) nothing.
        const again = await store.open(id);
        expect(again.events.slice(0, session.events.length)).toEqual(session.events);
        await again.close();
        expect(await backups(id)).toEqual(kept);
      },
    );
  });

  it('never overwrites an earlier backup, even one made in the same millisecond', async () => {
    const fixed = await openSessionStore({ dir: dir.path, now: () => Date.UTC(2026, 11, 1, 3, 15) });
    const id = idOf('v0-session');
    for (const kind of ['cr', 'crlf'] as const) {
      await writeFile(file(id), fixture('v0-session', kind));
      const session = await fixed.open(id);
      await session.close();
    }
    await fixed.close();
    const kept = await backups(id);
    expect(kept).toEqual([`${id}.jsonl.bak-20261201T031500000Z`, `${id}.jsonl.bak-20261201T031500000Z-1`]);
    expect(await readFile(join(dir.path, kept[0] as string), 'utf8')).toBe(fixture('v0-session', 'cr'));
    expect(await readFile(join(dir.path, kept[1] as string), 'utf8')).toBe(fixture('v0-session', 'crlf'));
  });

  it('forks a cold CRLF V6 session by encoding its lines, so the child is all LF', async () => {
    const id = idOf('v5-reasoning');
    await writeFile(file(id), fixture('v5-reasoning', 'crlf'));
    const child = await store.fork(id, { atSeq: 3, id: 'child' });
    await child.close();
    expect((await readFile(file('child'), 'utf8')).includes('\r')).toBe(false);
  });
});

describe('crash repair drops at most the one unfinished line', () => {
  let dir: TempDir;
  let store: SessionStore;
  const file = (id: string) => join(dir.path, `${id}.jsonl`);
  beforeEach(async () => {
    dir = await makeTempDir();
    store = await openSessionStore({ dir: dir.path });
  });
  afterEach(async () => {
    await store.close();
    await dir.remove();
  });

  /** A V6 log whose last two events are written on one final line with nothing between them. */
  async function plantJoinedTail(id: string, terminator: string): Promise<string> {
    const session = await store.create({ id });
    session.append('session/title', { title: 'one' });
    session.append('session/title', { title: 'two' });
    session.append('session/title', { title: 'three' });
    await session.close();
    const lines = (await readFile(file(id), 'utf8')).split('\n').slice(0, -1);
    const text = `${lines.slice(0, -2).join('\n')}\n${lines.at(-2) ?? ''}${lines.at(-1) ?? ''}${terminator}`;
    await writeFile(file(id), text);
    return text;
  }

  it.each([
    ['without', ''],
    ['with', '\n'],
  ])('refuses with CORRUPT, leaving the file byte-identical, a final line (%s a newline) holding two records', async (_, terminator) => {
    const text = await plantJoinedTail('joined', terminator);
    const error = await failure(store.open('joined'));
    expect(error.code).toBe('CORRUPT');
    expect(error.message).toMatch(/more than one record/);
    expect(await readFile(file('joined'), 'utf8')).toBe(text);
    expect((await failure(store.inspect('joined'))).code).toBe('CORRUPT');
    expect((await readdir(dir.path)).filter((name) => name.startsWith('joined.jsonl.'))).toEqual([]);
    // Refused, not held: the lease was released.
    expect((await store.list()).find((summary) => summary.id === 'joined')).toMatchObject({ busy: false, problem: { code: 'CORRUPT' } });
  });

  it('keeps the torn line it drops as <id>.jsonl.torn-<stamp>, byte for byte, and never deletes it', async () => {
    const session = await store.create({ id: 'torn' });
    session.append('session/title', { title: 'kept' });
    await session.close();
    const complete = await readFile(file('torn'), 'utf8');
    const torn = '{"seq":2,"type":"session/title","time":1,"data":{"title":"cut é';
    await writeFile(file('torn'), complete + torn);
    const reopened = await store.open('torn');
    await reopened.close();
    expect((await readFile(file('torn'), 'utf8')).startsWith(complete)).toBe(true);
    const kept = (await readdir(dir.path)).filter((name) => name.startsWith('torn.jsonl.'));
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatch(/^torn\.jsonl\.torn-[0-9]{8}T[0-9]{9}Z$/);
    expect(await readFile(join(dir.path, kept[0] as string), 'utf8')).toBe(torn);
    // Neither a session to list nor a leftover for the next store's temp cleanup.
    const other = await openSessionStore({ dir: dir.path });
    expect((await other.list()).map((summary) => summary.id)).toEqual(['torn']);
    await other.close();
    expect((await readdir(dir.path)).filter((name) => name.startsWith('torn.jsonl.'))).toEqual(kept);
  });
});
