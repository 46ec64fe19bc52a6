import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CodecError, decodeJsonl, encodeJsonl, validate, type SessionEvent, type SessionHeader } from 'dsh-codec';
import { createSessionStore, openSessionStore, SessionError, type SessionStore } from 'dsh-session';
import { LogBuilder, makeTempDir, type TempDir } from '@dsh/test-utils';
// The JSONL backend is reached through openSessionStore; tests inject write faults through it directly.
import { writeAll, type WriteChunk } from './durable-files.js';
import { createJsonlBackend } from './jsonl-backend.js';

const header = (id: string, version: 3 | 4 | 5 | 6 | 7 = 7): SessionHeader => ({
  format: 'dsh-session',
  version: version as 7,
  id,
  createdAt: 1_000,
  inheritedEventCount: 0,
});

function crashedLog(): SessionEvent[] {
  return new LogBuilder()
    .endSeed()
    .turn({ steps: [{ calls: [{ run: 'answered' }] }] })
    .turn({ steps: [{ calls: [{ run: 'started' }], open: true }], end: 'open' }).events;
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

describe('JSONL store files', () => {
  let dir: TempDir;
  let store: SessionStore;
  const file = (id: string) => join(dir.path, `${id}.jsonl`);
  const plant = (id: string, text: string) => writeFile(file(id), text);
  beforeEach(async () => {
    dir = await makeTempDir();
    store = await openSessionStore({ dir: dir.path });
  });
  afterEach(async () => {
    await store.close();
    await dir.remove();
  });

  it('keeps one V6 JSONL file per session at <dir>/<id>.jsonl, holding every flushed event', async () => {
    const session = await store.create({ id: 'one', title: 'T' });
    session.append('turn/start', { turn: 1 });
    session.append('user/message', { message: { id: 'u', role: 'user', content: [{ type: 'text', text: 'é ✓ 😀' }] } });
    await session.flush();
    const text = await readFile(file('one'), 'utf8');
    expect(text).toBe(encodeJsonl({ header: session.header, events: session.events }));
    expect((await readdir(dir.path)).filter((name) => !name.startsWith('.'))).toEqual(['one.jsonl']);
  });

  it('drops a torn final line on open (inspect only reports it), closing its turn and keeping every complete line', async () => {
    const events = crashedLog();
    const complete = encodeJsonl({ header: header('torn'), events });
    await plant('torn', `${complete}{"seq":${events.length},"type":"tool/res`);
    const inspection = await store.inspect('torn');
    expect(inspection).toMatchObject({ needsRepair: true, tornTail: { line: events.length + 2, offset: Buffer.byteLength(complete) } });
    expect(inspection.events).toEqual(events);
    expect(await readFile(file('torn'), 'utf8')).toBe(`${complete}{"seq":${events.length},"type":"tool/res`);
    const session = await store.open('torn');
    const text = await readFile(file('torn'), 'utf8');
    expect(text.startsWith(complete)).toBe(true);
    expect(session.events.slice(events.length).map((event) => event.type)).toEqual([
      'tool/result',
      'step/end',
      'turn/end',
      'session/end-seed',
    ]);
    const decoded = decodeJsonl(text);
    expect(decoded.tornTail).toBeUndefined();
    expect(decoded.events).toEqual(session.events);
  });

  it('treats an unparsable newline-terminated last line as torn, too', async () => {
    const events = new LogBuilder().endSeed().turn({}).events as SessionEvent[];
    const complete = encodeJsonl({ header: header('torn2'), events });
    await plant('torn2', `${complete}{"seq":5,"ty\n`);
    const session = await store.open('torn2');
    expect(session.events.slice(events.length).map((event) => event.type)).toEqual(['session/end-seed']);
    expect(await readFile(file('torn2'), 'utf8')).toBe(encodeJsonl({ header: session.header, events: session.events }));
  });

  it('refuses corruption before the last line with the codec’s code and line, leaving the file as it was', async () => {
    const events = crashedLog();
    const lines = encodeJsonl({ header: header('bad'), events }).split('\n');
    lines[3] = '{"seq":2,"type":"turn/start","time":';
    const text = lines.join('\n');
    await plant('bad', text);
    for (const attempt of [() => store.open('bad'), () => store.inspect('bad'), () => store.open('bad')]) {
      const error = await failure(attempt());
      expect(error.code).toBe('MALFORMED_JSON');
      expect(error.message).toContain('line 4');
      expect(CodecError.is(error.cause)).toBe(true);
    }
    expect(await readFile(file('bad'), 'utf8')).toBe(text);
    const [summary] = await store.list();
    expect(summary).toMatchObject({ id: 'bad', problem: { code: 'MALFORMED_JSON' } });
    // Forking a corrupt source is refused the same way, creating nothing.
    expect((await failure(store.fork('bad', { atSeq: 0, id: 'kid' }))).code).toBe('MALFORMED_JSON');
    expect(await store.has('kid')).toBe(false);
  });

  it('refuses a file whose header names another session, and a newer format, without touching them', async () => {
    await plant('alias', encodeJsonl({ header: header('original'), events: [{ seq: 0, type: 'session/end-seed', time: 1, data: {} }] }));
    expect((await failure(store.open('alias'))).code).toBe('CORRUPT');
    const future = '{"format":"dsh-session","version":9,"id":"future","createdAt":0,"inheritedEventCount":0}\n';
    await plant('future', future);
    const error = await failure(store.open('future'));
    expect(error.code).toBe('UNSUPPORTED_VERSION');
    expect(error.message).toMatch(/upgrade/);
    expect(await readFile(file('future'), 'utf8')).toBe(future);
  });

  it('opens a V3 log, transitioning the header to V7 atomically together with the repair', async () => {
    const events = crashedLog();
    const v3 = encodeJsonl({ header: header('old'), events }).replace('"version":7', '"version":3');
    await plant('old', v3);
    expect((await store.inspect('old')).formatVersion).toBe(3);
    const session = await store.open('old');
    const text = await readFile(file('old'), 'utf8');
    const decoded = decodeJsonl(text);
    expect(decoded.sourceVersion).toBe(7);
    expect(decoded.events).toEqual(session.events);
    expect(validate(7, { header: decoded.header, events: decoded.events })).toEqual([]);
    expect(session.events.slice(0, events.length)).toEqual(events);
  });

  it.each([3, 4, 5])('keeps an untouched V%i log as it is until the first append, then rewrites it under a V7 header', async (version) => {
    const events = new LogBuilder()
      .endSeed()
      .turn({ steps: [{ calls: [{ run: 'answered' }] }] })
      .endSeed().events as SessionEvent[];
    const old = encodeJsonl({ header: header('old'), events }).replace('"version":7', `"version":${String(version)}`);
    await plant('old', old);
    const session = await store.open('old');
    expect(session.events).toEqual(events);
    expect(session.header.version).toBe(7);
    await session.flush();
    expect(await readFile(file('old'), 'utf8')).toBe(old);
    session.append('session/title', { title: 'now V7' });
    await session.flush();
    const text = await readFile(file('old'), 'utf8');
    expect(text.split('\n')[0]).toContain('"version":7');
    expect(decodeJsonl(text).events).toEqual(session.events);
    expect((await store.list())[0]).toMatchObject({ id: 'old', formatVersion: 7, title: 'now V7' });
  });

  it('never writes a V5 record (a reasoning block) under a V4 header: the append rewrites the log as V7 first', async () => {
    const events = new LogBuilder().endSeed().events as SessionEvent[];
    const v4 = encodeJsonl({ header: header('old'), events }).replace('"version":7', '"version":4');
    await plant('old', v4);
    const session = await store.open('old');
    const next = session.events.length;
    session.append('turn/start', { turn: 1 });
    session.append('step/start', { turn: 1, step: 1 });
    const content = [
      { type: 'reasoning', text: '', providerData: { signature: 'sig' } },
      { type: 'text', text: 'hi' },
    ];
    session.append('assistant/message', { turn: 1, step: 1, message: { id: 'a1', role: 'assistant', content } });
    await session.flush();
    const text = await readFile(file('old'), 'utf8');
    expect(text.split('\n')[0]).toContain('"version":7');
    expect(decodeJsonl(text)).toMatchObject({ sourceVersion: 7, events: session.events });
    expect((session.events[next + 2]!.data as { message: { content: unknown } }).message.content).toEqual(content);
  });

  it('opens a crashed V0 log (no header): migrated in memory, repaired, and written back whole as V7', async () => {
    const v0 = [
      '{"seq":0,"type":"turn/start","time":1000,"data":{"turn":1}}',
      '{"seq":1,"type":"user/message","time":1001,"data":{"text":"clean up"}}',
      '{"seq":2,"type":"step/start","time":1002,"data":{"turn":1,"step":1}}',
      '{"seq":3,"type":"assistant/message","time":1003,"data":{"turn":1,"step":1,"text":"","toolCalls":[{"id":"c1","name":"shell","arguments":"{}"}]}}',
      '{"seq":4,"type":"tool/call","time":1004,"data":{"turn":1,"step":1,"callId":"c1","name":"shell","arguments":"{}"}}',
      '',
    ].join('\n');
    await plant('legacy', v0);
    const inspection = await store.inspect('legacy');
    expect(inspection).toMatchObject({ formatVersion: 0, needsRepair: true, header: { id: 'legacy', version: 7 } });
    expect(await readFile(file('legacy'), 'utf8')).toBe(v0);
    const session = await store.open('legacy');
    expect(session.events.slice(5).map((event) => event.type)).toEqual(['tool/result', 'step/end', 'turn/end', 'session/end-seed']);
    expect(session.events[5]!.data).toMatchObject({
      message: { id: 'interrupted-tool-result-c1-5' },
      error: { code: 'TOOL_OUTCOME_UNKNOWN' },
    });
    const text = await readFile(file('legacy'), 'utf8');
    expect(text).toBe(encodeJsonl({ header: session.header, events: session.events }));
    expect(session.events[1]!.data).toEqual({ message: { id: 'legacy-1', role: 'user', content: [{ type: 'text', text: 'clean up' }] } });
  });

  it('removes temp files of every writer (create, rewrite, migrate and its backup) unless a live holder of that session may be writing them', async () => {
    const held = await store.create({ id: 'mine' });
    await writeFile(join(dir.path, '.gone.999999999.0a1b.tmp'), 'partial');
    await writeFile(join(dir.path, `.idle.${process.pid}.0a1b.bak.tmp`), 'an interrupted migrate --write backup');
    await writeFile(join(dir.path, `.mine.${process.pid}.0a1b.tmp`), 'in progress');
    const other = await openSessionStore({ dir: dir.path });
    const names = await readdir(dir.path);
    expect(names).not.toContain('.gone.999999999.0a1b.tmp');
    expect(names).not.toContain(`.idle.${process.pid}.0a1b.bak.tmp`);
    expect(names).toContain(`.mine.${process.pid}.0a1b.tmp`);
    await other.close();
    await held.close();
  });
});

describe('JSONL storage errors', () => {
  it('reports storage failures as SessionErrors with the OS error as cause', async () => {
    const dir = await makeTempDir();
    try {
      await writeFile(join(dir.path, 'not-a-dir'), '');
      const opening = await failure(openSessionStore({ dir: join(dir.path, 'not-a-dir') }));
      expect(opening.code).toBe('STORAGE_ERROR');
      expect((opening.cause as NodeJS.ErrnoException).code).toMatch(/ENOTDIR|EEXIST/);
      const store = await openSessionStore({ dir: join(dir.path, 'store') });
      await rm(join(dir.path, 'store'), { recursive: true });
      expect((await failure(store.list())).code).toBe('STORAGE_ERROR');
      expect((await failure(store.create({ id: 'lost' }))).code).toBe('WRITE_FAILED');
      await store.close();
    } finally {
      await dir.remove();
    }
  });
});

describe('JSONL writes under failure', () => {
  let dir: TempDir;
  beforeEach(async () => {
    dir = await makeTempDir();
  });
  afterEach(async () => {
    await dir.remove();
  });

  /** Fails the next write after writing half of its bytes, as a full disk would. */
  function faultyWrites() {
    const state = { failNext: false, writes: 0 };
    const writeChunk: WriteChunk = async (handle, bytes, position) => {
      state.writes += 1;
      if (!state.failNext) return writeAll(handle, bytes, position);
      state.failNext = false;
      await writeAll(handle, bytes.subarray(0, Math.floor(bytes.length / 2)), position);
      throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
    };
    return { state, writeChunk };
  }

  it('rolls a failed append back to the last durable byte and retries the same events on the next flush', async () => {
    const { state, writeChunk } = faultyWrites();
    const store = createSessionStore({ backend: await createJsonlBackend({ dir: dir.path, writeChunk }) });
    const session = await store.create({ id: 'disk' });
    const path = join(dir.path, 'disk.jsonl');
    const before = await readFile(path, 'utf8');
    session.append('turn/start', { turn: 1 });
    session.append('user/message', { message: { id: 'u', role: 'user', content: [{ type: 'text', text: 'x'.repeat(5_000) }] } });
    state.failNext = true;
    const error = await failure(session.flush());
    expect(error.code).toBe('WRITE_FAILED');
    expect(await readFile(path, 'utf8')).toBe(before);
    await session.flush();
    const text = await readFile(path, 'utf8');
    expect(text).toBe(encodeJsonl({ header: session.header, events: session.events }));
    await store.close();
  });

  it('leaves no session and no temp file behind when creating fails', async () => {
    const { state, writeChunk } = faultyWrites();
    const store = createSessionStore({ backend: await createJsonlBackend({ dir: dir.path, writeChunk }) });
    state.failNext = true;
    expect((await failure(store.create({ id: 'never', title: 'x' }))).code).toBe('WRITE_FAILED');
    expect((await readdir(dir.path)).filter((name) => name !== '.leases')).toEqual([]);
    expect(await store.has('never')).toBe(false);
    // The id was not burnt and its lease is free.
    const session = await store.create({ id: 'never' });
    expect(session.events).toHaveLength(1);
    await store.close();
  });

  it('releases the child id and its lease when a fork fails mid-write, from a live and from a cold parent', async () => {
    // A full disk: every write fails until space comes back.
    const state = { full: false };
    const writeChunk: WriteChunk = async (handle, bytes, position) => {
      if (!state.full) return writeAll(handle, bytes, position);
      await writeAll(handle, bytes.subarray(0, Math.floor(bytes.length / 2)), position);
      throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
    };
    const store = createSessionStore({ backend: await createJsonlBackend({ dir: dir.path, writeChunk }) });
    const live = await store.create({ id: 'live-parent', title: 'p' });
    const cold = await store.create({ id: 'cold-parent', title: 'q' });
    await cold.close();
    for (const source of ['live-parent', 'cold-parent', await store.observe('cold-parent')]) {
      state.full = true;
      expect((await failure(store.fork(source, { atSeq: 0, id: 'child' }))).code).toBe('WRITE_FAILED');
      state.full = false;
      expect(await store.has('child')).toBe(false);
      expect((await readdir(dir.path)).filter((name) => name.startsWith('.child'))).toEqual([]);
      // Neither the id nor its lease was kept: the same fork succeeds now.
      const child = await store.fork(source, { atSeq: 0, id: 'child' });
      await child.close();
      await store.delete('child');
    }
    await live.close();
    await store.close();
  });

  it('group-commits concurrent appends into one write', async () => {
    const { state, writeChunk } = faultyWrites();
    const store = createSessionStore({ backend: await createJsonlBackend({ dir: dir.path, writeChunk }) });
    const session = await store.create({ id: 'batch' });
    const writesAfterCreate = state.writes;
    for (let index = 0; index < 50; index += 1) {
      session.append('input/queued', { inputId: `in-${index}`, message: { id: `m${index}`, role: 'user', content: [] } });
    }
    await Promise.all(Array.from({ length: 5 }, () => session.flush()));
    expect(state.writes - writesAfterCreate).toBe(1);
    await session.flush();
    expect(state.writes - writesAfterCreate).toBe(1);
    await store.close();
  });
});
