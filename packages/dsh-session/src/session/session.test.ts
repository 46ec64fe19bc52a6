import { describe, expect, it } from 'vitest';
import { FrozenJson, type SessionEvent } from 'dsh-codec';
import { createMemoryBackend, createMemoryStore, SessionError, type SessionBackend, type SessionWriter } from 'dsh-session';

/** A memory backend that counts append batches, to observe group commit. */
function countingBackend(): { backend: SessionBackend; batches: number[] } {
  const inner = createMemoryBackend();
  const batches: number[] = [];
  const wrap = (writer: SessionWriter): SessionWriter => ({
    ...writer,
    append: (expected, events) => {
      batches.push(events.length);
      return writer.append(expected, events);
    },
  });
  return {
    batches,
    backend: {
      ...inner,
      create: async (id, header, events) => wrap(await inner.create(id, header, events)),
      acquire: async (id) => wrap(await inner.acquire(id)),
    },
  };
}

async function newSession(now?: () => number) {
  const store = createMemoryStore(now === undefined ? {} : { now });
  return { store, session: await store.create({ id: 's1', title: 'first', config: { tools: ['read'], cwd: '/w' } }) };
}

function invalid(action: () => unknown): SessionError {
  try {
    action();
  } catch (error) {
    if (SessionError.is(error)) return error;
    throw error;
  }
  throw new Error('expected a SessionError');
}

describe('Session.append', () => {
  it('assigns the next seq and a time from the clock that never goes backwards', async () => {
    let clock = 10_000;
    const { session } = await newSession(() => clock);
    const start = session.append('turn/start', { turn: 1 });
    clock = 5_000;
    const user = session.append('user/message', { message: { id: 'u1', role: 'user', content: [{ type: 'text', text: 'hi' }] } });
    clock = 20_000;
    const step = session.append('step/start', { turn: 1, step: 1 });
    expect([start.seq, user.seq, step.seq]).toEqual([session.firstLiveSeq, session.firstLiveSeq + 1, session.firstLiveSeq + 2]);
    expect([start.time, user.time, step.time]).toEqual([10_000, 10_000, 20_000]);
    expect(session.events.at(-1)).toBe(step);
  });

  it('freezes events deeply and copies the caller’s data', async () => {
    const { session } = await newSession();
    const data = { message: { id: 'q1', role: 'user', content: [{ type: 'text', text: 'queued' }] }, inputId: 'in-1' };
    const event = session.append('input/queued', data);
    data.message.content[0]!.text = 'changed';
    expect((event.data as typeof data).message.content[0]!.text).toBe('queued');
    expect(Object.isFrozen(event)).toBe(true);
    expect(Object.isFrozen((event.data as typeof data).message.content[0])).toBe(true);
    expect(() => {
      (event as { seq: number }).seq = 99;
    }).toThrow(TypeError);
    for (const seeded of session.events) expect(Object.isFrozen(seeded.data)).toBe(true);
  });

  it('keeps a FrozenJson as it is (checked and copied once, by its maker) and still checks the event it makes', async () => {
    const { session } = await newSession();
    const frozen = FrozenJson.copy({ message: { id: 'q2', role: 'user', content: [{ type: 'text', text: 'once' }] }, inputId: 'in-2' });
    if (frozen === undefined) throw new Error('expected lossless JSON');
    const event = session.append('input/queued', frozen);
    expect(event.data).toBe(frozen.value);
    expect(session.events.at(-1)).toBe(event);
    const before = session.events.length;
    const badStep = FrozenJson.copy({ turn: 1, step: 1 });
    if (badStep === undefined) throw new Error('expected lossless JSON');
    expect(invalid(() => session.append('step/start', badStep)).code).toBe('INVALID_EVENT');
    expect(session.events).toHaveLength(before);
  });

  it('rejects a relationship violation with INVALID_EVENT naming the codec issue, appending nothing', async () => {
    const { session } = await newSession();
    const before = session.events.length;
    const error = invalid(() => session.append('step/start', { turn: 1, step: 1 }));
    expect(error.code).toBe('INVALID_EVENT');
    expect(error.message).toMatch(/open turn/);
    expect(error.message).toContain(`seq ${before}`);
    expect(session.events).toHaveLength(before);
    // The checker did not advance either: the right event still fits at the same seq.
    expect(session.append('turn/start', { turn: 1 }).seq).toBe(before);
    expect(invalid(() => session.append('turn/start', { turn: 2 })).message).toMatch(/no open turn|open since/);
  });

  it('rejects bad shapes, lossy JSON, unknown types without ignorable, and records only closers or constructors write', async () => {
    const { session } = await newSession();
    const before = session.events.length;
    expect(invalid(() => session.append('session/title', { title: 7 })).code).toBe('INVALID_EVENT');
    expect(invalid(() => session.append('session/title', { title: Number.NaN })).message).toMatch(/lossless JSON/);
    expect(invalid(() => session.append('plugin/thing', {})).message).toMatch(/ignorable/);
    expect(invalid(() => session.append('session/end-seed', {})).message).toMatch(/constructor and buildForkSeed/);
    session.append('turn/start', { turn: 1 });
    expect(invalid(() => session.append('turn/end', { turn: 1, reason: { kind: 'interrupted' } })).message).toMatch(/shared closer/);
    expect(invalid(() => session.append('turn/end', { turn: 1, reason: { kind: 'forked' } })).code).toBe('INVALID_EVENT');
    expect(session.events).toHaveLength(before + 1);
    expect(session.append('plugin/thing', { ok: true }, { ignorable: true })).toMatchObject({ type: 'plugin/thing', ignorable: true });
  });

  it('writes surfaceOp and ignorable into the envelope in canonical order', async () => {
    const { session } = await newSession();
    const replaced = session.append(
      'user/message',
      { message: { id: 'sum', role: 'user', content: [{ type: 'text', text: 'summary' }] } },
      { surfaceOp: { op: 'replace', start: 0, end: 1 } },
    );
    expect(Object.keys(replaced)).toEqual(['seq', 'type', 'time', 'data', 'surfaceOp']);
    expect(replaced.surfaceOp).toEqual({ op: 'replace', start: 0, end: 1 });
  });
});

describe('Session observation', () => {
  it('calls subscribers synchronously after each append, in order, until they unsubscribe', async () => {
    const { session } = await newSession();
    const seen: number[] = [];
    const unsubscribe = session.subscribe((event) => seen.push(event.seq));
    const first = session.append('turn/start', { turn: 1 });
    expect(seen).toEqual([first.seq]);
    session.append('user/message', { message: { id: 'u', role: 'user', content: [] } });
    unsubscribe();
    session.append('step/start', { turn: 1, step: 1 });
    expect(seen).toEqual([first.seq, first.seq + 1]);
  });

  it('exposes the latest title and config', async () => {
    const { session } = await newSession();
    expect(session.title).toBe('first');
    expect(session.config).toEqual({ tools: ['read'], cwd: '/w' });
    session.append('session/title', { title: 'second' });
    session.append('session/config', { model: 'm' });
    expect(session.title).toBe('second');
    expect(session.config).toEqual({ model: 'm' });
  });

  it('reads its length, latest events by type and a tail without copying the whole log', async () => {
    const { session } = await newSession();
    session.append('turn/start', { turn: 1 });
    session.append('turn/end', { turn: 1, reason: { kind: 'completed' } });
    session.append('turn/start', { turn: 2 });
    expect(session.nextSeq).toBe(session.events.length);
    expect(session.latest('turn/start')?.data).toEqual({ turn: 2 });
    expect(session.latest('turn/end', 'session/title')?.type).toBe('turn/end');
    expect(session.latest('compaction/start')).toBeUndefined();
    expect(session.eventsFrom(session.nextSeq - 2)).toEqual(session.events.slice(-2));
    expect(session.eventsFrom(-3)).toEqual(session.events);
    expect(session.eventsFrom(session.nextSeq + 5)).toEqual([]);
    // A copy: changing it leaves the log alone.
    session.eventsFrom(0).pop();
    expect(session.nextSeq).toBe(session.events.length);
  });

  it('is closed after close(): appends fail with SESSION_CLOSED, close is idempotent', async () => {
    const { session } = await newSession();
    expect(session.closed).toBe(false);
    await session.close();
    await session.close();
    expect(session.closed).toBe(true);
    expect(invalid(() => session.append('session/title', { title: 'late' })).code).toBe('SESSION_CLOSED');
  });
});

describe('Session.flush', () => {
  it('group-commits appends made before a flush into one batch and does not write when nothing is pending', async () => {
    const { backend, batches } = countingBackend();
    const store = createMemoryStore({ backend });
    const session = await store.create({ id: 'g' });
    session.append('turn/start', { turn: 1 });
    for (let index = 0; index < 9; index += 1)
      session.append('input/queued', { inputId: `in-${index}`, message: { id: `m${index}`, role: 'user', content: [] } });
    await Promise.all([session.flush(), session.flush(), session.flush()]);
    expect(batches).toEqual([10]);
    await session.flush();
    await session.flush();
    expect(batches).toEqual([10]);
    const stored = await backend.read('g');
    expect(stored.events).toEqual(session.events);
    await store.close();
  });

  it('makes appends durable even without an explicit flush', async () => {
    const { backend, batches } = countingBackend();
    const store = createMemoryStore({ backend });
    const session = await store.create({ id: 'bg' });
    session.append('session/title', { title: 'later' });
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches).toEqual([1]);
    await store.close();
  });

  it('rejects with WRITE_FAILED when the backend fails, keeps the events pending, and retries on the next flush', async () => {
    const inner = createMemoryBackend();
    let failures = 1;
    const backend: SessionBackend = {
      ...inner,
      create: async (id, header, events) => {
        const writer = await inner.create(id, header, events);
        return {
          ...writer,
          append: (expected, batch) => (failures-- > 0 ? Promise.reject(new Error('disk full')) : writer.append(expected, batch)),
        };
      },
    };
    const store = createMemoryStore({ backend });
    const session = await store.create({ id: 'f' });
    session.append('session/title', { title: 'x' });
    const failure = await session.flush().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(SessionError.is(failure) && failure.code).toBe('WRITE_FAILED');
    expect((failure as Error).cause).toMatchObject({ message: 'disk full' });
    await session.flush();
    const stored = await inner.read('f');
    expect(stored.events.map((event: SessionEvent) => event.type)).toEqual(['session/end-seed', 'session/title']);
    await store.close();
  });
});

describe('Session after a storage failure', () => {
  /** A memory backend whose appends fail with `failure()` while it returns an error. */
  function failingBackend(failure: () => Error | undefined): { backend: SessionBackend; inner: SessionBackend; attempts: () => number } {
    const inner = createMemoryBackend();
    let attempts = 0;
    const wrap = (writer: SessionWriter): SessionWriter => ({
      ...writer,
      append: (expected, batch) => {
        attempts += 1;
        const error = failure();
        return error === undefined ? writer.append(expected, batch) : Promise.reject(error);
      },
    });
    return {
      inner,
      attempts: () => attempts,
      backend: { ...inner, create: async (id, header, events) => wrap(await inner.create(id, header, events)) },
    };
  }

  it('writes the events a passing failure left pending by itself once storage is back, without another flush', async () => {
    let down = true;
    const { backend, inner, attempts } = failingBackend(() =>
      down ? Object.assign(new Error('no space'), { code: 'ENOSPC' }) : undefined,
    );
    const store = createMemoryStore({ backend });
    const session = await store.create({ id: 'r' });
    session.append('session/title', { title: 'kept' });
    await expect(session.flush()).rejects.toMatchObject({ code: 'WRITE_FAILED' });
    // Retried with a backoff while storage stays down.
    while (attempts() < 3) await new Promise((resolve) => setTimeout(resolve, 5));
    down = false;
    while ((await inner.read('r')).events.length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await inner.read('r')).events).toEqual(session.events);
    await session.close();
    await store.close();
  });

  it('does not retry a lost lease; close() then gives the lease up and rejects SESSION_BUSY', async () => {
    const { backend, attempts } = failingBackend(() => new SessionError('SESSION_BUSY', 'taken over'));
    const store = createMemoryStore({ backend });
    const session = await store.create({ id: 'l' });
    session.append('session/title', { title: 'lost' });
    await expect(session.flush()).rejects.toMatchObject({ code: 'SESSION_BUSY' });
    // The write the append scheduled for itself may still come; after it, nothing more is tried.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const tried = attempts();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(attempts()).toBe(tried);
    await expect(session.close()).rejects.toMatchObject({ code: 'SESSION_BUSY' });
    // Released: this store may take the session again.
    const again = await store.open('l');
    await again.close();
    await store.close();
  });
});

describe('Session listeners that throw', () => {
  it('do not undo the append or starve later listeners; the error becomes a process warning', async () => {
    const { session } = await newSession();
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const seen: number[] = [];
      session.subscribe(() => {
        throw new Error('listener bug');
      });
      session.subscribe((event) => seen.push(event.seq));
      const event = session.append('turn/start', { turn: 1 });
      expect(session.events.at(-1)).toBe(event);
      expect(seen).toEqual([event.seq]);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.map((warning) => warning.message)).toContain('listener bug');
    } finally {
      process.off('warning', onWarning);
    }
  });
});
