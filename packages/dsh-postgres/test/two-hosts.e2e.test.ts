/**
 * SPEC §14 across real processes: two hosts (separate `node` processes, each with its own pool) on
 * one database. Pausing (SIGSTOP/SIGCONT) and killing (SIGKILL) a holder exercise the fenced lease.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { openPostgresStore } from 'dsh-postgres';
import { buildForkSeed } from 'dsh-session/fork';
import pg from 'pg';
import { postgresTestUrl, uniqueSchemaName } from '@dsh/test-utils';
import { killAllHostProcesses, startHostProcess, type HostProcess } from './__fixtures__/start-host-process.js';

const url = postgresTestUrl();
const connectionString = url ?? '';
const LEASE_MS = 1_000;
const schema = uniqueSchemaName('two_hosts');

const startHost = (hostId: string): Promise<HostProcess> => startHostProcess({ connectionString, schema, leaseMs: LEASE_MS, hostId });

const sleep = (ms: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, ms);
  });

const turnOpen = [
  { type: 'turn/start', data: { turn: 1 } },
  { type: 'user/message', data: { message: { id: 'u1', role: 'user', content: [{ type: 'text', text: 'go' }] } } },
  { type: 'step/start', data: { turn: 1, step: 1 } },
  {
    type: 'assistant/message',
    data: {
      turn: 1,
      step: 1,
      message: { id: 'a1', role: 'assistant', content: [{ type: 'tool-call', id: 'c1', name: 'read', arguments: '{}' }] },
    },
  },
  { type: 'tool/call', data: { turn: 1, step: 1, callId: 'c1', name: 'read', arguments: '{}', effect: 'read-only' } },
];

describe.skipIf(url === undefined)('two host processes on one database', () => {
  afterEach(async () => {
    await killAllHostProcesses();
  });
  afterAll(async () => {
    const admin = new pg.Client({ connectionString });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  });

  it('both list the same sessions; only one writes a session, the other gets SESSION_BUSY naming it', { timeout: 120_000 }, async () => {
    const [a, b] = await Promise.all([startHost('host-a'), startHost('host-b')]);
    expect((await a.send({ op: 'create', id: 'shared' })).ok).toBe(true);
    expect((await b.send({ op: 'list' })).ids).toContain('shared');
    expect((await a.send({ op: 'list' })).ids).toEqual((await b.send({ op: 'list' })).ids);
    const busy = await b.send({ op: 'open', id: 'shared' });
    expect(busy).toMatchObject({ ok: false, code: 'SESSION_BUSY' });
    expect(busy.message).toContain(`pid ${String(a.pid)} on host-a`);
    expect(busy.message).toMatch(/fork/);
  });

  it(
    'SIGSTOP the holder past leaseMs: the other takes over and repairs; after SIGCONT the old holder writes nothing',
    { timeout: 120_000 },
    async () => {
      const [a, b] = await Promise.all([startHost('host-a'), startHost('host-b')]);
      await a.send({ op: 'create', id: 'paused' });
      const before = await a.send({ op: 'append', events: turnOpen, flush: true });
      expect(before.ok).toBe(true);
      a.child.kill('SIGSTOP');
      await sleep(LEASE_MS * 2);
      const taken = await b.send({ op: 'open', id: 'paused' });
      expect(taken.ok).toBe(true);
      const stored = (before.lastSeq ?? 0) + 1;
      const repaired = taken.events!.slice(stored);
      expect(repaired.map((event) => event.type)).toEqual(['tool/result', 'step/end', 'turn/end', 'session/end-seed']);
      expect(repaired[2]?.data).toEqual({ turn: 1, reason: { kind: 'interrupted' } });
      a.child.kill('SIGCONT');
      const late = await a.send({
        op: 'append',
        events: [{ type: 'session/title', data: { title: 'from the paused host' } }],
        flush: true,
      });
      expect(late).toMatchObject({ ok: false, code: 'SESSION_BUSY' });
      expect(late.message).toMatch(/lost its lease/);
      // The true reason: b took over because a's lease expired (a was stopped), naming b.
      expect(late.message).toMatch(new RegExp(`taken over by host host-b pid ${String(b.pid)} at \\S+ after this holder's lease expired`));
      expect((await b.send({ op: 'append', events: [{ type: 'session/title', data: { title: 'from b' } }], flush: true })).ok).toBe(true);
      const reader = await openPostgresStore({ connectionString, schema });
      const log = (await reader.inspect('paused')).events;
      await reader.close();
      expect(log.some((event) => JSON.stringify(event.data).includes('from the paused host'))).toBe(false);
      expect(log.at(-1)?.data).toEqual({ title: 'from b' });
    },
  );

  it('fork from host B of a session live on host A, at an exact mid-step seq', { timeout: 120_000 }, async () => {
    const [a, b] = await Promise.all([startHost('host-a'), startHost('host-b')]);
    await a.send({ op: 'create', id: 'live-on-a' });
    await a.send({ op: 'append', events: turnOpen, flush: true });
    const source = (await a.send({ op: 'events' })).events!;
    const callSeq = source.findIndex((event) => event.type === 'tool/call');
    const assistantSeq = callSeq - 1;
    for (const [atSeq, id] of [
      [callSeq, 'b-kid-call'],
      [assistantSeq, 'b-kid-assistant'],
    ] as const) {
      const child = await b.send({ op: 'fork', source: 'live-on-a', atSeq, id });
      expect(child.ok).toBe(true);
      expect(child.events).toEqual(buildForkSeed(source, atSeq));
    }
    // A keeps writing its session.
    expect(
      (
        await a.send({
          op: 'append',
          events: [
            {
              type: 'tool/result',
              data: {
                turn: 1,
                step: 1,
                message: { id: 'r1', role: 'tool', callId: 'c1', content: [{ type: 'text', text: 'ok' }], isError: false },
              },
            },
          ],
          flush: true,
        })
      ).ok,
    ).toBe(true);
  });

  it('SIGKILL a holder mid-append, many times: no acknowledged event is lost', { timeout: 300_000 }, async () => {
    for (let trial = 0; trial < 6; trial++) {
      const a = await startHost('host-k');
      const id = `killed-${String(trial)}`;
      await a.send({ op: 'create', id });
      let acked = { seq: -1, title: '' };
      a.lines.on('line', (line) => {
        const parsed = JSON.parse(line) as { acked?: number; title?: string };
        if (parsed.acked !== undefined) acked = { seq: parsed.acked, title: parsed.title ?? '' };
      });
      a.child.stdin!.write(`${JSON.stringify({ op: 'loop' })}\n`);
      await sleep(200 + 150 * trial);
      a.child.kill('SIGKILL');
      await a.exited;
      const last = acked;
      expect(last.seq).toBeGreaterThan(0);
      // Same host id: the dead holder's lease is taken over at once.
      const store = await openPostgresStore({ connectionString, schema, leaseMs: LEASE_MS, hostId: 'host-k' });
      const session = await store.open(id);
      const titles = session.events.filter((event) => event.type === 'session/title').map((event) => event.data.title);
      expect(session.events[last.seq]?.data).toEqual({ title: last.title });
      expect(titles.slice(0, Number(last.title.slice(1)) + 1)).toEqual(
        Array.from({ length: Number(last.title.slice(1)) + 1 }, (_, index) => `k${String(index)}`),
      );
      await session.close();
      await store.close();
    }
  });
});
