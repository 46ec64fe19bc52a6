import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionEvent } from 'dsh-codec';
import { createScriptedModel } from 'dsh-agent';
import {
  createMemoryBackend,
  createMemoryStore,
  createSessionStore,
  openSessionStore,
  SessionError,
  type SessionBackend,
  type SessionStore,
} from 'dsh-session';
import { arbitraryLog, makeTempDir } from '@dsh/test-utils';
import { createHost, HostError, selectForkCut, type Host } from 'dsh-host';
import { createCrashedSession } from './__fixtures__/crashed-session.js';
import { echoTool } from './__fixtures__/echo-tool.js';
import { createGatedModel } from './__fixtures__/gated-model.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function track(host: Host, store: SessionStore): Host {
  cleanups.push(async () => {
    await host.close();
    await store.close();
  });
  return host;
}

function types(events: readonly SessionEvent[]): string[] {
  return events.map((event) => event.type);
}

async function expectCode(promise: Promise<unknown>, code: string): Promise<HostError> {
  try {
    await promise;
  } catch (error) {
    if (!HostError.is(error)) throw error;
    expect(error.code).toBe(code);
    return error;
  }
  return expect.fail(`expected ${code}`);
}

/** A session with one completed turn that called `echo` once (step 1) and answered (step 2). */
async function sessionWithToolTurn(store: SessionStore, title = 'baseline') {
  const model = createScriptedModel([
    { text: 'calling', toolCalls: [{ name: 'echo', arguments: { text: 'hi' } }] },
    { text: 'first answer' },
  ]);
  const host = track(createHost({ store, model, tools: [echoTool] }), store);
  const result = await host.query({ prompt: 'start', title });
  return { host, result };
}

describe('host.fork from a cold source', () => {
  it('forks at an exact mid-step seq from the stored events, leaving the parent unchanged', async () => {
    const store = createMemoryStore();
    const { host, result } = await sessionWithToolTurn(store);
    await host.release(result.sessionId);
    const before = await store.inspect(result.sessionId);
    const toolCall = before.events.find((event) => event.type === 'tool/call')!;

    const fork = await host.fork(result.sessionId, { atSeq: toolCall.seq });

    expect(fork).toEqual({
      sessionId: fork.sessionId,
      parentSession: result.sessionId,
      forkCut: toolCall.seq,
      inheritedEventCount: toolCall.seq + 1,
    });
    const child = await host.observe(fork.sessionId);
    expect(child.events.slice(0, toolCall.seq + 1)).toEqual(before.events.slice(0, toolCall.seq + 1));
    expect(types(child.events.slice(toolCall.seq + 1))).toEqual(['session/end-seed', 'tool/result', 'step/end', 'turn/end']);
    expect(child.events.at(-1)?.data).toEqual({ turn: 1, reason: { kind: 'forked' } });
    expect((child.events[toolCall.seq + 2]?.data as { error: unknown }).error).toEqual({
      name: 'ToolOutcomeUnknownError',
      code: 'TOOL_OUTCOME_UNKNOWN',
    });
    expect((await store.inspect(result.sessionId)).events).toEqual(before.events);
  });

  it('forks a crashed source from its stored events only, never copying its uncommitted repair', async () => {
    const store = createMemoryStore();
    const crashed = await store.create({ title: 'crashed' });
    crashed.append('input/queued', { inputId: 'in-1', message: { id: 'u', role: 'user', content: [{ type: 'text', text: 'go' }] } });
    crashed.append('turn/start', { turn: 1 });
    crashed.append('user/message', { message: { id: 'u', role: 'user', content: [{ type: 'text', text: 'go' }] }, inputId: 'in-1' });
    crashed.append('step/start', { turn: 1, step: 1 });
    const lastSeq = crashed.append('assistant/message', {
      turn: 1,
      step: 1,
      message: { id: 'a', role: 'assistant', content: [{ type: 'tool-call', id: 'c1', name: 'echo', arguments: '{}' }] },
    }).seq;
    await crashed.close();
    const host = track(createHost({ store }), store);

    const observed = await host.observe(crashed.id);
    expect(observed).toMatchObject({ live: false, needsRepair: true });
    const exact = await host.fork(crashed.id, { atSeq: lastSeq });
    const child = await host.observe(exact.sessionId);
    expect(child.events.slice(lastSeq + 1).map((event) => [event.type, (event.data as { reason?: unknown }).reason])).toEqual([
      ['session/end-seed', undefined],
      ['tool/result', undefined],
      ['step/end', undefined],
      ['turn/end', { kind: 'forked' }],
    ]);
    expect(JSON.stringify(child.events)).not.toContain('interrupted');
    const omitted = await host.fork(crashed.id);
    expect(omitted.forkCut).toBe(observed.events.findIndex((event) => event.type === 'input/queued') - 1);
    // The source is still unrepaired: forking never wrote to it.
    expect(await store.inspect(crashed.id)).toMatchObject({ needsRepair: true, events: observed.events });
  });

  it('reports the format version a log was read from: stored, then kept once this host opened it', async () => {
    const dir = await makeTempDir();
    cleanups.push(() => dir.remove());
    const v1 = [
      { format: 'dsh-session', version: 1, id: 'old', createdAt: 5 },
      { seq: 0, type: 'turn/start', time: 5, data: { turn: 1 } },
      { seq: 1, type: 'user/message', time: 6, data: { message: { id: 'u', role: 'user', content: [{ type: 'text', text: 'hi' }] } } },
      { seq: 2, type: 'turn/end', time: 7, data: { turn: 1, reason: { kind: 'completed' } } },
    ];
    await writeFile(join(dir.path, 'old.jsonl'), v1.map((line) => `${JSON.stringify(line)}\n`).join(''));
    const store = await openSessionStore({ dir: dir.path });
    const host = track(createHost({ store }), store);
    expect(await host.observe('old')).toMatchObject({ live: false, formatVersion: 1, header: { version: 7 } });
    expect((await host.list())[0]).toMatchObject({ id: 'old', formatVersion: 1, status: 'stored' });
    await host.send('old', 'hello again');
    await host.idle('old');
    // Opening rewrote the file's header as V7; the session was still read from V1.
    expect((await store.inspect('old')).formatVersion).toBe(7);
    expect(await host.observe('old')).toMatchObject({ live: true, formatVersion: 1 });
    expect((await host.list())[0]).toMatchObject({ id: 'old', live: true, formatVersion: 1 });
    await host.release('old');
    expect(await host.observe('old')).toMatchObject({ live: false, formatVersion: 1 });
    expect((await host.list())[0]).toMatchObject({ id: 'old', live: false, formatVersion: 1 });
    // Another host first reads the file as it is now.
    const other = createHost({ store });
    expect(await other.observe('old')).toMatchObject({ formatVersion: 7 });
    expect(await other.open('old')).toMatchObject({ live: true, formatVersion: 7 });
    await other.close();
    // Sessions a host creates or forks are V7 from the start.
    const fresh = await host.create();
    const fork = await host.fork('old');
    expect((await host.observe(fresh.sessionId)).formatVersion).toBe(7);
    expect((await host.observe(fork.sessionId)).formatVersion).toBe(7);
  });

  it('rejects an atSeq outside the observation with INVALID_CUT and creates nothing', async () => {
    const store = createMemoryStore();
    const { host, result } = await sessionWithToolTurn(store);
    const { events } = await host.observe(result.sessionId);
    for (const atSeq of [events.length, -1, 1.5, 10_000]) {
      const error = await expectCode(host.fork(result.sessionId, { atSeq }), 'INVALID_CUT');
      expect(error.message).toContain(`0..${events.length - 1}`);
    }
    expect((await host.list()).map((item) => item.id)).toEqual([result.sessionId]);
  });

  it('with atSeq omitted, forks at selectForkCut of the stored log and needs no closers (generated logs)', async () => {
    const store = createMemoryStore();
    const host = track(createHost({ store }), store);
    await fc.assert(
      fc.asyncProperty(arbitraryLog({ truncate: false }), async (generated) => {
        const session = await store.create();
        const skip = generated[0]?.type === 'session/end-seed' ? 1 : 0;
        const delta = session.events.length - skip;
        for (const event of generated.slice(skip)) {
          const surfaceOp =
            event.surfaceOp === undefined
              ? {}
              : { surfaceOp: { ...event.surfaceOp, start: event.surfaceOp.start + delta, end: event.surfaceOp.end + delta } };
          session.append(event.type, event.data, { ...surfaceOp, ...(event.ignorable === undefined ? {} : { ignorable: true }) });
        }
        await session.close();
        const stored = (await store.inspect(session.id)).events;

        const fork = await host.fork(session.id);

        expect(fork.forkCut).toBe(selectForkCut(stored));
        const child = await host.observe(fork.sessionId);
        expect(child.events.slice(0, fork.forkCut + 1)).toEqual(stored.slice(0, fork.forkCut + 1));
        expect(types(child.events.slice(fork.forkCut + 1))).toEqual(['session/end-seed']);
        expect(child.pendingInputs).toEqual([]);
        await host.release(fork.sessionId);
      }),
      { numRuns: 40 },
    );
  });
});

describe('host.fork from a live source', () => {
  it('forks while the source keeps appending: the child matches its observation and the parent loses nothing', async () => {
    const store = createMemoryStore();
    const model = createScriptedModel([
      {
        text: 'step one',
        toolCalls: [
          { name: 'echo', arguments: { text: 'a' } },
          { name: 'echo', arguments: { text: 'b' } },
        ],
      },
      { text: 'step two', toolCalls: [{ name: 'echo', arguments: { text: 'c' } }] },
      { text: 'all done' },
    ]);
    const forks: Promise<{ sessionId: string; forkCut: number }>[] = [];
    const host = track(
      createHost({
        store,
        model,
        tools: [echoTool],
        telemetry: (event, { sessionId }) => {
          // Fork in the middle of the turn, at each tool call, without waiting: the agent keeps going.
          if (event.type === 'tool/call' && forks.length < 3)
            forks.push(host.fork(sessionId, event.seq % 2 === 0 ? { atSeq: event.seq } : {}));
        },
      }),
      store,
    );
    const { sessionId } = await host.create({ title: 'busy' });
    const { inputId } = await host.send(sessionId, 'go');
    expect(inputId).toBeTypeOf('string');
    await host.idle(sessionId);
    const children = await Promise.all(forks);
    expect(children).toHaveLength(3);

    const parent = await host.observe(sessionId);
    expect(types(parent.events).filter((type) => type === 'tool/result')).toHaveLength(3);
    expect(parent.events.at(-1)?.data).toEqual({ turn: 1, reason: { kind: 'completed' } });
    expect(parent.events.map((event) => event.seq)).toEqual(parent.events.map((_, index) => index));
    for (const fork of children) {
      const child = await host.observe(fork.sessionId);
      expect(child.header).toMatchObject({ parentSession: sessionId, forkCut: fork.forkCut, inheritedEventCount: fork.forkCut + 1 });
      expect(child.events.slice(0, fork.forkCut + 1)).toEqual(parent.events.slice(0, fork.forkCut + 1));
      expect(child.events[fork.forkCut + 1]).toMatchObject({ type: 'session/end-seed', data: { inherited: true } });
    }
  });

  it('never lets a child run the parent’s pending input', async () => {
    const store = createMemoryStore();
    const model = createGatedModel([{ text: 'parent turn 1' }, { text: 'parent turn 2' }, { text: 'child turn' }]);
    const host = track(createHost({ store, model }), store);
    const { sessionId } = await host.create();
    await host.send(sessionId, 'first');
    await model.requested(1);
    const queued = await host.send(sessionId, 'second, queued while turn 1 runs');
    const parentView = await host.observe(sessionId);
    expect(parentView.pendingInputs.map((event) => (event.data as { inputId: string }).inputId)).toEqual([queued.inputId]);

    const exact = await host.fork(sessionId, { atSeq: parentView.events.length - 1 });
    const omitted = await host.fork(sessionId);
    expect(types((await host.observe(omitted.sessionId)).events)).not.toContain('input/queued');
    const child = await host.observe(exact.sessionId);
    expect(types(child.events)).toContain('input/queued');
    expect(child.pendingInputs).toEqual([]);

    model.answer();
    await model.requested(2);
    model.answer();
    await host.idle(sessionId);
    await host.idle(exact.sessionId);
    // The child's closers ended the inherited turn; it started no turn of its own for the parent's input.
    expect(model.requests).toHaveLength(2);
    const userMessages = (await host.observe(sessionId)).events.filter((event) => event.type === 'user/message');
    expect(userMessages.map((event) => (event.data as { inputId?: string }).inputId)).toContain(queued.inputId);

    const own = await host.send(exact.sessionId, 'child input');
    await model.requested(3);
    model.answer();
    await host.idle(exact.sessionId);
    const claimed = (await host.observe(exact.sessionId)).events
      .slice(exact.inheritedEventCount)
      .filter((event) => event.type === 'user/message')
      .map((event) => (event.data as { inputId?: string }).inputId);
    expect(claimed).toEqual([own.inputId]);
  });

  it('persists the child’s marker and closers before the child is published', async () => {
    const dir = await makeTempDir();
    cleanups.push(() => dir.remove());
    const store = await openSessionStore({ dir: dir.path });
    const seenOnDisk: number[] = [];
    const host = track(
      createHost({
        store,
        model: createScriptedModel([{ text: 'call', toolCalls: [{ name: 'echo', arguments: { text: 'x' } }] }, { text: 'ok' }]),
        tools: [echoTool],
        telemetry: (event, { sessionId }) => {
          if (event.type === 'session/end-seed' && (event.data as { inherited?: boolean }).inherited === true) {
            seenOnDisk.push(
              readFileSync(join(dir.path, `${sessionId}.jsonl`), 'utf8')
                .trimEnd()
                .split('\n').length,
            );
          }
        },
      }),
      store,
    );
    const { sessionId } = await host.query({ prompt: 'go' });
    const atSeq = (await host.observe(sessionId)).events.find((event) => event.type === 'tool/call')!.seq;
    const fork = await host.fork(sessionId, { atSeq });
    // header + inherited prefix + marker + synthetic result + step/end + turn/end
    expect(seenOnDisk).toEqual([1 + atSeq + 1 + 4]);
    expect((await host.observe(fork.sessionId)).events).toHaveLength(atSeq + 1 + 4);
  });
});

describe('idempotent fork', () => {
  it('returns the same child for the same Idempotency-Key, even concurrently', async () => {
    const store = createMemoryStore();
    const { host, result } = await sessionWithToolTurn(store);
    const [first, second] = await Promise.all([
      host.fork(result.sessionId, { atSeq: 3, idempotencyKey: 'key-1' }),
      host.fork(result.sessionId, { atSeq: 3, idempotencyKey: 'key-1' }),
    ]);
    const third = await host.fork(result.sessionId, { atSeq: 3, idempotencyKey: 'key-1' });
    expect(second).toEqual(first);
    expect(third).toEqual(first);
    expect((await host.list()).filter((item) => item.parentSession === result.sessionId)).toHaveLength(1);
    const other = await host.fork(result.sessionId, { atSeq: 3, idempotencyKey: 'key-2' });
    expect(other.sessionId).not.toBe(first.sessionId);
  });

  it('refuses a key reused for a different request with IDEMPOTENCY_MISMATCH', async () => {
    const store = createMemoryStore();
    const { host, result } = await sessionWithToolTurn(store);
    await host.fork(result.sessionId, { atSeq: 3, idempotencyKey: 'key' });
    await expectCode(host.fork(result.sessionId, { atSeq: 4, idempotencyKey: 'key' }), 'IDEMPOTENCY_MISMATCH');
  });

  it('forgets a failed request so a retry with the same key can succeed', async () => {
    const memory = createMemoryStore();
    let failuresLeft = 1;
    // The first fork fails in storage; the identical retry must reach the store again and succeed.
    const store: SessionStore = {
      ...memory,
      fork: (...args: Parameters<SessionStore['fork']>) =>
        failuresLeft-- > 0
          ? Promise.reject(new SessionError('STORAGE_ERROR', 'The session storage failed: disk detached'))
          : memory.fork(...args),
    };
    const { host, result } = await sessionWithToolTurn(store);
    await expectCode(host.fork(result.sessionId, { atSeq: 3, idempotencyKey: 'retry' }), 'STORAGE_ERROR');
    const retried = await host.fork(result.sessionId, { atSeq: 3, idempotencyKey: 'retry' });
    expect(retried).toMatchObject({ parentSession: result.sessionId, forkCut: 3 });
    expect(await host.fork(result.sessionId, { atSeq: 3, idempotencyKey: 'retry' })).toEqual(retried);
  });
});

describe('durable fork idempotency (SPEC §12)', () => {
  it('stores the key and a digest of the request in the child header (V5 forkRequest)', async () => {
    const store = createMemoryStore();
    const { host, result } = await sessionWithToolTurn(store);
    const child = await host.fork(result.sessionId, { atSeq: 3, idempotencyKey: 'stored-key' });
    const observed = await store.observe(child.sessionId);
    expect(observed.header.version).toBe(7);
    expect(observed.header.forkRequest).toEqual({ key: 'stored-key', digest: expect.stringMatching(/^sha256-[0-9a-f]{64}$/) });
    const plain = await host.fork(result.sessionId, { atSeq: 3 });
    expect((await store.observe(plain.sessionId)).header.forkRequest).toBeUndefined();
  });

  it('is durable: after a restart the same key returns the same child and a different request is IDEMPOTENCY_MISMATCH', async () => {
    const dir = await makeTempDir('dsh-host-idempotency-');
    cleanups.push(() => dir.remove());
    const firstStore = await openSessionStore({ dir: dir.path });
    const { host, result } = await sessionWithToolTurn(firstStore);
    const first = await host.fork(result.sessionId, { atSeq: 3, title: 'retry me', idempotencyKey: 'durable-key' });
    await host.close();
    await firstStore.close();

    // A new process: a new store and host over the same directory, nothing remembered in memory.
    const store = await openSessionStore({ dir: dir.path });
    const restarted = track(createHost({ store, model: createScriptedModel([]), tools: [echoTool] }), store);
    const again = await restarted.fork(result.sessionId, { atSeq: 3, title: 'retry me', idempotencyKey: 'durable-key' });
    expect(again).toEqual(first);
    expect((await restarted.list()).filter((item) => item.parentSession === result.sessionId)).toHaveLength(1);
    await expectCode(
      restarted.fork(result.sessionId, { atSeq: 4, title: 'retry me', idempotencyKey: 'durable-key' }),
      'IDEMPOTENCY_MISMATCH',
    );
    await expectCode(
      restarted.fork(result.sessionId, { atSeq: 3, title: 'other title', idempotencyKey: 'durable-key' }),
      'IDEMPOTENCY_MISMATCH',
    );
    expect((await restarted.list()).filter((item) => item.parentSession === result.sessionId)).toHaveLength(1);
  });

  it('digests the request canonically: config key order does not matter, values do', async () => {
    const store = createMemoryStore();
    const { host, result } = await sessionWithToolTurn(store);
    const first = await host.fork(result.sessionId, { atSeq: 3, config: { cwd: '/w', model: 'm' }, idempotencyKey: 'cfg' });
    const restarted = track(createHost({ store, model: createScriptedModel([]), tools: [echoTool] }), store);
    expect(await restarted.fork(result.sessionId, { atSeq: 3, config: { model: 'm', cwd: '/w' }, idempotencyKey: 'cfg' })).toEqual(first);
    await expectCode(
      restarted.fork(result.sessionId, { atSeq: 3, config: { model: 'n', cwd: '/w' }, idempotencyKey: 'cfg' }),
      'IDEMPOTENCY_MISMATCH',
    );
  });
});

describe('names and lineage', () => {
  it('resolves names (latest title wins) and refuses an ambiguous one with NAME_AMBIGUOUS listing the ids', async () => {
    const store = createMemoryStore();
    const { host, result } = await sessionWithToolTurn(store, 'alpha');
    const a = await host.fork('alpha', { title: 'peer' });
    const b = await host.fork('alpha', { title: 'peer' });
    expect(await host.resolve('alpha')).toBe(result.sessionId);
    // Unnamed forks inherit the name: live and cold, the session that set it still wins.
    const unnamed = await host.fork('alpha');
    const cold = await host.fork('alpha');
    await host.release(cold.sessionId);
    expect(await host.resolve('alpha')).toBe(result.sessionId);
    await host.rename(unnamed.sessionId, 'alpha');
    expect((await expectCode(host.resolve('alpha'), 'NAME_AMBIGUOUS')).details.candidates?.sort()).toEqual(
      [result.sessionId, unnamed.sessionId].sort(),
    );
    await host.rename(unnamed.sessionId, 'unnamed');
    const error = await expectCode(host.resolve('peer'), 'NAME_AMBIGUOUS');
    expect(error.details.candidates?.sort()).toEqual([a.sessionId, b.sessionId].sort());
    await host.rename(b.sessionId, 'peer-b');
    expect(await host.resolve('peer')).toBe(a.sessionId);
    expect((await host.observe('peer-b')).title).toBe('peer-b');
    await host.release(b.sessionId);
    expect(await host.resolve('peer-b')).toBe(b.sessionId);
  });

  it('resolves an id without reading any log, and a name shared with forks from one listing', async () => {
    const backend = createMemoryBackend();
    const reads: string[] = [];
    const counted: SessionBackend = {
      ...backend,
      read: (id) => {
        reads.push(id);
        return backend.read(id);
      },
    };
    const store = createSessionStore({ backend: counted });
    const named = await store.create({ id: 'named', title: 'alpha' });
    named.append('turn/start', { turn: 1 });
    named.append('turn/end', { turn: 1, reason: { kind: 'completed' } });
    await named.close();
    for (const id of ['fork-1', 'fork-2']) await (await store.fork('named', { atSeq: 2, id })).close();
    await (await store.create({ id: 'other', title: 'beta' })).close();
    const host = createHost({ store });
    reads.length = 0;
    expect(await host.resolve('fork-2')).toBe('fork-2');
    expect(reads).toEqual([]);
    // Three sessions carry the name (two forks inherited it): each log is read once, for its summary.
    expect(await host.resolve('alpha')).toBe('named');
    expect(reads.sort()).toEqual(['fork-1', 'fork-2', 'named', 'other']);
    await host.close();
  });

  it('reports ancestors and descendants', async () => {
    const store = createMemoryStore();
    const { host, result } = await sessionWithToolTurn(store, 'root');
    const child = await host.fork(result.sessionId, { title: 'child' });
    const sibling = await host.fork(result.sessionId, { atSeq: 2, title: 'sibling' });
    const grandchild = await host.fork(child.sessionId, { title: 'grandchild' });
    const lineage = await host.lineage('child');
    expect(lineage.session).toMatchObject({ id: child.sessionId, parentSession: result.sessionId, forkCut: child.forkCut });
    expect(lineage.ancestors.map((node) => node.title)).toEqual(['root']);
    expect(lineage.descendants.map((node) => node.id)).toEqual([grandchild.sessionId]);
    const rootLineage = await host.lineage('root');
    expect(rootLineage.descendants.map((node) => node.id).sort()).toEqual([child.sessionId, sibling.sessionId].sort());
  });
});

describe('telemetry', () => {
  it('sees each lifecycle from its firstLifecycleSeq: a fork from its marker, a restored session after its stored prefix', async () => {
    const store = createMemoryStore();
    const seen = new Map<string, number[]>();
    const host = track(
      createHost({
        store,
        model: createScriptedModel([{ text: 'one' }, { text: 'two' }, { text: 'three' }]),
        telemetry: (event, { sessionId }) => {
          seen.set(sessionId, [...(seen.get(sessionId) ?? []), event.seq]);
        },
      }),
      store,
    );
    const first = await host.query({ prompt: 'hello' });
    const firstLength = (await host.observe(first.sessionId)).events.length;
    expect(seen.get(first.sessionId)).toEqual(Array.from({ length: firstLength }, (_, seq) => seq));

    const stepStart = (await host.observe(first.sessionId)).events.find((event) => event.type === 'step/start')!.seq;
    const fork = await host.fork(first.sessionId, { atSeq: stepStart });
    // The marker, then the closers of the open step and turn; never the inherited prefix.
    expect(seen.get(fork.sessionId)).toEqual([stepStart + 1, stepStart + 2, stepStart + 3]);

    await host.release(first.sessionId);
    seen.clear();
    await host.query({ prompt: 'again', resume: first.sessionId });
    const restored = seen.get(first.sessionId) ?? [];
    expect(restored[0]).toBe(firstLength);
    expect(restored).toEqual(Array.from({ length: restored.length }, (_, index) => firstLength + index));
  });

  it('survives a throwing sink and logs it', async () => {
    const store = createMemoryStore();
    const logged: string[] = [];
    const host = track(
      createHost({
        store,
        telemetry: () => {
          throw new Error('sink down');
        },
        logger: { error: (message) => logged.push(message) },
      }),
      store,
    );
    const result = await host.query({ prompt: 'hello' });
    expect(result.isError).toBe(false);
    expect(logged.length).toBeGreaterThan(0);
  });
});

describe('host.query', () => {
  it('creates, continues, and forks a new branch each time with forkSession', async () => {
    // A clock that ticks on every reading, so "most recently updated" (continue) is never a same-millisecond tie.
    let clock = Date.now();
    const store = createMemoryStore({ now: () => ++clock });
    const host = track(
      createHost({ store, model: createScriptedModel(Array.from({ length: 6 }, (_, index) => ({ text: `answer ${index + 1}` }))) }),
      store,
    );
    const created = await host.query({ prompt: 'one', title: 'base', cwd: '/tmp/project' });
    expect(created).toMatchObject({ result: 'answer 1', isError: false, turn: 1 });
    expect(created.parentSession).toBeUndefined();
    const continued = await host.query({ prompt: 'two', resume: 'base' });
    expect(continued).toMatchObject({ sessionId: created.sessionId, result: 'answer 2', turn: 2 });
    const branchA = await host.query({ prompt: 'three', resume: 'base', forkSession: true });
    const branchB = await host.query({ prompt: 'four', resume: 'base', forkSession: true });
    expect(branchA.parentSession).toBe(created.sessionId);
    expect(branchB.parentSession).toBe(created.sessionId);
    expect(branchA.sessionId).not.toBe(branchB.sessionId);
    expect(branchA.turn).toBe(3);
    const atStart = await host.query({ prompt: 'five', resume: 'base', forkSession: true, resumeSessionAt: 0 });
    expect(atStart).toMatchObject({ forkCut: 0, turn: 1 });
    // Every branch inherited the name; it still means the session that set it.
    expect(await host.resolve('base')).toBe(created.sessionId);
    const configsBefore = types((await host.observe(atStart.sessionId)).events).filter((type) => type === 'session/config').length;
    const latest = await host.query({ prompt: 'six', continue: true, cwd: '/tmp/project' });
    expect(latest.sessionId).toBe(atStart.sessionId);
    // Continuing in the same directory records no config change.
    const after = (await host.observe(atStart.sessionId)).events;
    expect(types(after).filter((type) => type === 'session/config')).toHaveLength(configsBefore);
  });

  it('refuses resumeSessionAt without forkSession, and forkSession without a source', async () => {
    const store = createMemoryStore();
    const host = track(createHost({ store }), store);
    const { sessionId } = await host.query({ prompt: 'x' });
    await expectCode(host.query({ prompt: 'y', resume: sessionId, resumeSessionAt: 0 }), 'INVALID_OPTION');
    await expectCode(host.query({ prompt: 'y', forkSession: true }), 'INVALID_OPTION');
  });

  it('restricts tools to the listed ones', async () => {
    const store = createMemoryStore();
    const model = createScriptedModel([
      { text: 'try', toolCalls: [{ name: 'echo', arguments: { text: 'x' } }] },
      { text: 'ok' },
      { text: 'now with echo' },
    ]);
    const host = track(createHost({ store, model, tools: [echoTool] }), store);
    const { sessionId } = await host.query({ prompt: 'go', tools: [] });
    expect(model.requests[0]?.tools).toEqual([]);
    const result = (await host.observe(sessionId)).events.find((event) => event.type === 'tool/result');
    expect((result?.data as { message: { isError: boolean } }).message.isError).toBe(true);
    await host.query({ prompt: 'again', resume: sessionId, tools: ['echo'] });
    expect(model.requests[2]?.tools.map((tool) => tool.name)).toEqual(['echo']);
  });
});

describe('shared working directories', () => {
  it('shows which live sessions share a cwd', async () => {
    const store = createMemoryStore();
    const host = track(createHost({ store }), store);
    const a = await host.query({ prompt: 'a', cwd: '/tmp/shared' });
    const b = await host.query({ prompt: 'b', resume: a.sessionId, forkSession: true });
    const c = await host.query({ prompt: 'c', cwd: '/tmp/elsewhere' });
    expect((await host.observe(a.sessionId)).sharesCwdWith).toEqual([b.sessionId]);
    const list = await host.list();
    expect(list.find((item) => item.id === b.sessionId)).toMatchObject({ cwd: '/tmp/shared', sharesCwdWith: [a.sessionId] });
    expect(list.find((item) => item.id === c.sessionId)?.sharesCwdWith).toEqual([]);
  });
});

describe('host.open', () => {
  it('repairs a crashed session: interrupted closers are persisted, turn 1 ends interrupted, and the session is live', async () => {
    const store = createMemoryStore();
    const { id, storedLength } = await createCrashedSession(store);
    const telemetry: string[] = [];
    const host = track(createHost({ store, tools: [echoTool], telemetry: (event) => telemetry.push(event.type) }), store);
    const stored = await store.inspect(id);

    // Observing is read-only: no repair, nothing written.
    const cold = await host.observe(id);
    expect(cold).toMatchObject({ live: false, needsRepair: true, firstLifecycleSeq: storedLength });
    expect((await store.inspect(id)).events).toEqual(stored.events);

    const opened = await host.open(id);
    expect(opened).toMatchObject({ live: true, needsRepair: false, firstLifecycleSeq: storedLength, pendingInputs: [] });
    expect(opened.events.slice(0, storedLength)).toEqual(stored.events);
    const repair = opened.events.slice(storedLength).map((event) => {
      const data = event.data as { message?: { id: string; callId: string }; reason?: unknown };
      return [event.type, data.message?.callId ?? data.reason ?? null];
    });
    expect(repair).toEqual([
      ['tool/result', 'c1'],
      ['tool/result', 'c2'],
      ['step/end', null],
      ['turn/end', { kind: 'interrupted' }],
      ['session/end-seed', null],
    ]);
    expect(JSON.stringify(opened.events.slice(storedLength, -2))).toContain('interrupted-tool-result-');
    // Persisted before open returned, and reported as the new lifecycle.
    expect((await store.inspect(id)).events).toEqual(opened.events);
    expect(telemetry).toEqual(repair.map(([type]) => type));
    expect((await host.list()).find((item) => item.id === id)).toMatchObject({ live: true, status: 'idle' });
  });

  it('is idempotent for a live session and accepts a name', async () => {
    const store = createMemoryStore();
    const { id } = await createCrashedSession(store, 'the crash');
    const host = track(createHost({ store }), store);
    const first = await host.open('the crash');
    const again = await host.open(id);
    expect(again.events).toEqual(first.events);
    expect(again.live).toBe(true);
    const [a, b] = await Promise.all([host.open(id), host.open('the crash')]);
    expect(a.events).toEqual(first.events);
    expect(b.events).toEqual(first.events);
    expect((await store.inspect(id)).events).toEqual(first.events);
  });

  it('opens a clean cold session without repair, adding only the lifecycle marker', async () => {
    const store = createMemoryStore();
    const { host, result } = await sessionWithToolTurn(store);
    await host.release(result.sessionId);
    const before = await host.observe(result.sessionId);
    const opened = await host.open(result.sessionId);
    expect(opened.events.slice(0, before.events.length)).toEqual(before.events);
    expect(types(opened.events.slice(before.events.length))).toEqual(['session/end-seed']);
  });

  it('refuses with SESSION_BUSY naming the holder when another process holds the session, and writes nothing', async () => {
    const dir = await makeTempDir();
    cleanups.push(() => dir.remove());
    const store = await openSessionStore({ dir: dir.path });
    const { id } = await createCrashedSession(store);
    const host = track(createHost({ store }), store);
    const other = await openSessionStore({ dir: dir.path });
    cleanups.push(() => other.close());
    const before = await store.inspect(id);
    const held = await other.open(id);
    cleanups.push(() => held.close());
    const error = await expectCode(host.open(id), 'SESSION_BUSY');
    expect(error.details.holder?.pid).toBe(process.pid);
    expect((await host.observe(id)).live).toBe(false);
    // The other holder's own repair is all the file gained.
    expect((await store.inspect(id)).events).toEqual(held.events);
    expect(held.events.length).toBeGreaterThan(before.events.length);
    await expectCode(host.open('no-such-session'), 'SESSION_NOT_FOUND');
  });
});
