/** SPEC §11 — entry points: the smallest public surface, its names and shapes, and the `dsh` CLI contract. */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CodecError, CURRENT_FORMAT_VERSION, decodeJsonl, encodeJsonl, migrate, validate } from 'dsh-codec';
import { createMemoryStore, openSessionStore, SessionError, type SessionStore } from 'dsh-session';
import { buildForkSeed } from 'dsh-session/fork';
import { createHost } from 'dsh-host';
import { completedTurnRows, logRow, makeTempDir, runDsh, type TempDir } from '@dsh/test-utils';
import { appendAll, jsonl, rejection, thrown, toEvents, v4Header } from './support.js';

describe('§11 dsh-codec surface', () => {
  it('§11 exports CURRENT_FORMAT_VERSION = 7, decodeJsonl, encodeJsonl, validate, migrate and CodecError', () => {
    expect(CURRENT_FORMAT_VERSION).toBe(7);
    for (const fn of [decodeJsonl, encodeJsonl, validate, migrate]) expect(typeof fn).toBe('function');
    const error = thrown(() => decodeJsonl('{"format":"dsh-session","version":99}\n'));
    expect(error).toBeInstanceOf(CodecError);
    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBe('UNSUPPORTED_VERSION');
  });

  it('§11 decodeJsonl returns { header, events, sourceVersion } and tornTail only when there is one', () => {
    const decoded = decodeJsonl(jsonl(v4Header('x'), toEvents([logRow.title('t')])));
    expect(Object.keys(decoded).sort()).toEqual(['events', 'header', 'sourceVersion']);
    const torn = decodeJsonl(jsonl(v4Header('x'), toEvents([logRow.title('t')])).slice(0, -1));
    expect(Object.keys(torn).sort()).toEqual(['events', 'header', 'sourceVersion', 'tornTail']);
  });

  it('§11 validate returns [] when valid and a list of issues otherwise (it does not throw)', () => {
    expect(validate(4, { header: v4Header(), events: [] })).toEqual([]);
    const issues = validate(4, { header: { nonsense: true }, events: [{ nope: 1 }] });
    expect(Array.isArray(issues)).toBe(true);
    expect(issues.length).toBeGreaterThan(0);
  });
});

describe('§11 dsh-session surface', () => {
  let store: SessionStore;
  beforeEach(() => {
    store = createMemoryStore();
  });
  afterEach(async () => {
    await store.close();
  });

  it('§11 create({ id, title, config }) returns an open Session with the documented fields', async () => {
    const session = await store.create({ id: 's1', title: 'hello', config: { tools: ['echo'], cwd: '/w', model: 'keyless' } });
    expect(session.id).toBe('s1');
    expect(session.header).toMatchObject({ format: 'dsh-session', version: 7, id: 's1', inheritedEventCount: 0 });
    expect(session.events.some((event) => event.type === 'session/title' && JSON.stringify(event.data) === '{"title":"hello"}')).toBe(true);
    expect(session.events.some((event) => event.type === 'session/config' && (event.data as { cwd?: string }).cwd === '/w')).toBe(true);
    for (const key of ['firstLiveSeq', 'firstLifecycleSeq', 'inheritedEventCount'] as const)
      expect(Number.isInteger(session[key])).toBe(true);
    for (const method of ['append', 'flush', 'close'] as const) expect(typeof session[method]).toBe('function');
  });

  it('§11 create without an id makes one; a second create with the same id is SESSION_EXISTS', async () => {
    const session = await store.create();
    expect(session.id).toMatch(/^[A-Za-z0-9_-]{1,128}$/);
    const error = await rejection(store.create({ id: session.id }));
    expect(error).toBeInstanceOf(SessionError);
    expect(error.code).toBe('SESSION_EXISTS');
  });

  it('§11 open, inspect, fork and delete of an unknown id are SESSION_NOT_FOUND', async () => {
    for (const action of [
      () => store.open('ghost'),
      () => store.inspect('ghost'),
      () => store.fork('ghost', { atSeq: 0 }),
      () => store.delete('ghost'),
    ]) {
      const error = await rejection(action);
      expect(SessionError.is(error)).toBe(true);
      expect(error.code).toBe('SESSION_NOT_FOUND');
    }
  });

  it('§11 inspect returns { header, events, needsRepair }', async () => {
    const session = await store.create({ id: 's' });
    appendAll(session, completedTurnRows(1));
    await session.flush();
    const inspection = await store.inspect('s');
    expect(inspection.header).toEqual(session.header);
    expect(inspection.events).toEqual(session.events);
    expect(inspection.needsRepair).toBe(false);
  });

  it('§11 append returns the event it appended, with seq and time assigned', async () => {
    const session = await store.create({ id: 's' });
    const event = session.append('session/title', { title: 'x' });
    expect(event).toEqual({ seq: session.events.length - 1, type: 'session/title', time: event.time, data: { title: 'x' } });
    expect(session.events.at(-1)).toEqual(event);
  });

  it('§11 close flushes and releases the lease: no more appends; the session can be opened again', async () => {
    const session = await store.create({ id: 's' });
    appendAll(session, [logRow.title('kept')]);
    await session.close();
    expect(() => session.append('session/title', { title: 'late' })).toThrow(SessionError);
    const again = await store.open('s');
    expect(again.events.some((event) => JSON.stringify(event.data) === '{"title":"kept"}')).toBe(true);
  });

  it('§11 fork options { atSeq, id, title, config } and a returned Session', async () => {
    const parent = await store.create({ id: 'p' });
    appendAll(parent, completedTurnRows(1));
    const child = await store.fork('p', { atSeq: 3, id: 'c', title: 'branch', config: { cwd: '/b' } });
    expect(child.id).toBe('c');
    expect(child.events.slice(0, 5)).toEqual(buildForkSeed(parent.events, 3).slice(0, 5));
  });

  it('§11 list returns one summary per stored session', async () => {
    await store.create({ id: 'a' });
    await store.create({ id: 'b' });
    expect((await store.list()).map((summary) => summary.id).sort()).toEqual(['a', 'b']);
  });

  it('§11 SessionError is an Error with a code', async () => {
    const error = await rejection(store.open('missing'));
    expect(error).toBeInstanceOf(Error);
    expect(error).toBeInstanceOf(SessionError);
    expect(error.name).toBe('SessionError');
  });
});

describe('§11 dsh-host surface', () => {
  it('§11 createHost({ store }) needs nothing else; host.fork and host.fetch work in-process', async () => {
    const store = createMemoryStore();
    const host = createHost({ store });
    try {
      const parent = await store.create({ id: 'p' });
      appendAll(parent, completedTurnRows(1));
      await parent.close();
      expect(await host.fork('p', { atSeq: 1, title: 't', config: { cwd: '/x' } })).toEqual({
        sessionId: expect.any(String) as string,
        parentSession: 'p',
        forkCut: 1,
        inheritedEventCount: 2,
      });
      const response = await host.fetch(new Request('http://dsh.test/api/sessions'));
      expect(response).toBeInstanceOf(Response);
      expect(response.status).toBe(200);
    } finally {
      await host.close();
      await store.close();
    }
  });
});

// ---- The `dsh` CLI (apps/cli, bin `dsh`), run as a user would: a separate Node process (`runDsh`).
describe('§11 dsh CLI', { timeout: 180_000 }, () => {
  let dir: TempDir;
  beforeEach(async () => {
    dir = await makeTempDir();
  });
  afterEach(async () => {
    await dir.remove();
  });

  const V0_LOG = jsonl(undefined, [
    { seq: 0, type: 'turn/start', time: 10, data: { turn: 1 } },
    { seq: 1, type: 'user/message', time: 11, data: { text: 'hi' } },
    { seq: 2, type: 'turn/end', time: 12, data: { turn: 1, reason: 'completed' } },
  ]);

  it('§11 dsh validate FILE exits 0 for a valid log of any version and 1 with the code and line otherwise', async () => {
    const v0 = join(dir.path, 'old.jsonl');
    const v4 = join(dir.path, 'new.jsonl');
    const bad = join(dir.path, 'bad.jsonl');
    await writeFile(v0, V0_LOG);
    await writeFile(v4, jsonl(v4Header('new'), toEvents(completedTurnRows(1))));
    await writeFile(
      bad,
      jsonl(v4Header('bad'), [...toEvents([logRow.title('a')]), { seq: 1, type: 'session/title', time: 'later', data: { title: 'b' } }]),
    );
    expect((await runDsh(['validate', v0])).code).toBe(0);
    expect((await runDsh(['validate', v4])).code).toBe(0);
    const failed = await runDsh(['validate', bad]);
    expect(failed.code).toBe(1);
    const output = failed.stdout + failed.stderr;
    expect(output).toContain('INVALID_EVENT');
    expect(output).toMatch(/line 3\b/);
  });

  it('§11 dsh migrate FILE prints V7 JSONL; --write replaces the file and keeps FILE.bak', async () => {
    const file = join(dir.path, 'legacy.jsonl');
    await writeFile(file, V0_LOG);
    const printed = await runDsh(['migrate', file]);
    expect(printed.code).toBe(0);
    const decoded = decodeJsonl(printed.stdout);
    expect(decoded.sourceVersion).toBe(7);
    expect(decoded.events).toHaveLength(3);
    expect(await readFile(file, 'utf8')).toBe(V0_LOG);
    const written = await runDsh(['migrate', file, '--write']);
    expect(written.code).toBe(0);
    expect(await readFile(`${file}.bak`, 'utf8')).toBe(V0_LOG);
    expect(decodeJsonl(await readFile(file, 'utf8')).sourceVersion).toBe(7);
  });

  it('§11 print mode with --output-format json prints { sessionId, result, isError }; --resume --fork-session forks', async () => {
    const data = join(dir.path, 'data');
    const first = await runDsh(['-p', 'hello there', '--data', data, '--output-format', 'json']);
    expect(first.code, first.stderr).toBe(0);
    const result = JSON.parse(first.stdout) as { sessionId: string; result: string; isError: boolean };
    expect(typeof result.sessionId).toBe('string');
    expect(typeof result.result).toBe('string');
    expect(result.isError).toBe(false);
    const forked = await runDsh(['-p', 'again', '--data', data, '--resume', result.sessionId, '--fork-session', '--output-format', 'json']);
    expect(forked.code, forked.stderr).toBe(0);
    const child = JSON.parse(forked.stdout) as { sessionId: string };
    expect(child.sessionId).not.toBe(result.sessionId);
    const store = await openSessionStore({ dir: data });
    try {
      expect((await store.inspect(child.sessionId)).header.parentSession).toBe(result.sessionId);
    } finally {
      await store.close();
    }
  });

  it('§11 --model scripted:FILE consumes one response per model request; --resume without --fork-session continues the same session', async () => {
    const data = join(dir.path, 'data');
    const script = join(dir.path, 'script.json');
    await writeFile(script, JSON.stringify([{ text: 'first scripted answer' }, { text: 'second scripted answer' }]));
    const first = await runDsh(['-p', 'one', '--data', data, '--model', `scripted:${script}`, '--output-format', 'json']);
    expect(first.code, first.stderr).toBe(0);
    const one = JSON.parse(first.stdout) as { sessionId: string; result: string; isError: boolean };
    expect(one).toMatchObject({ result: 'first scripted answer', isError: false });
    const resumed = await runDsh([
      '-p',
      'two',
      '--data',
      data,
      '--resume',
      one.sessionId,
      '--model',
      `scripted:${script}`,
      '--output-format',
      'json',
    ]);
    expect(resumed.code, resumed.stderr).toBe(0);
    const two = JSON.parse(resumed.stdout) as { sessionId: string; result: string };
    expect(two.sessionId).toBe(one.sessionId);
    // A new process reads the script afresh: its first response answers the first request of this run.
    expect(two.result).toBe('first scripted answer');
    const store = await openSessionStore({ dir: data });
    try {
      const turns = (await store.inspect(one.sessionId)).events.filter((event) => event.type === 'turn/start');
      expect(turns).toHaveLength(2);
    } finally {
      await store.close();
    }
  });

  it('§11 the CLI data directory falls back to $DSH_HOME', async () => {
    const home = join(dir.path, 'home');
    const run = await runDsh(['-p', 'hi', '--output-format', 'json'], { env: { DSH_HOME: home } });
    expect(run.code, run.stderr).toBe(0);
    const { sessionId } = JSON.parse(run.stdout) as { sessionId: string };
    const store = await openSessionStore({ dir: home });
    try {
      expect((await store.inspect(sessionId)).header.id).toBe(sessionId);
    } finally {
      await store.close();
    }
  });
});
