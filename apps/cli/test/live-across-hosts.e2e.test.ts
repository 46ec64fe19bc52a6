/**
 * SPEC §14 live across hosts, through real processes: two `dsh serve --database-url` on one database.
 * Host A runs the turns; the SSE stream of host B — which never opened the session — shows each event
 * within one second of A's own stream, once, in seq order; when A stops and B opens the session
 * itself, B's stream goes on without a gap or a duplicate.
 */
import type { ChildProcess } from 'node:child_process';
import pg from 'pg';
import { postgresTestUrl, spawnDsh, uniqueSchemaName, waitFor } from '@dsh/test-utils';
import { afterAll, afterEach, describe, expect, it } from 'vitest';

const url = postgresTestUrl();
const schema = uniqueSchemaName('cli_live');
const database = new URL(url ?? 'postgres://unset');
database.searchParams.set('schema', schema);

type Served = { child: ChildProcess; url: string; exited: Promise<number | null> };
type Frame = { seq: number; type: string; turn?: number; at: number; data: string };

const started: ChildProcess[] = [];

/** `dsh serve --database-url … --port 0`, once it prints its URL. */
async function serve(): Promise<Served> {
  const child = spawnDsh(['serve', '--port', '0', '--database-url', database.toString()]);
  started.push(child);
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  let out = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  const served = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`dsh serve printed no URL: ${out}`));
    }, 45_000);
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const match = /serving (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
  });
  return { child, url: served, exited };
}

/** Reads the SSE stream of a session into `frames` (event frames only: deltas carry no id) until aborted. */
async function watchStream(base: string, sessionId: string, frames: Frame[], signal: AbortSignal): Promise<void> {
  const response = await fetch(`${base}/api/sessions/${sessionId}/events`, { signal });
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  void (async () => {
    let text = '';
    for (;;) {
      const chunk = await reader.read().catch(() => ({ done: true as const, value: undefined }));
      if (chunk.done) return;
      text += chunk.value;
      let end = text.indexOf('\n\n');
      while (end !== -1) {
        const block = text.slice(0, end);
        text = text.slice(end + 2);
        end = text.indexOf('\n\n');
        const id = /^id: (\d+)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (id === undefined || data === undefined) continue;
        const event = JSON.parse(data) as { seq: number; type: string; data: { turn?: number } };
        frames.push({
          seq: Number(id),
          type: event.type,
          at: Date.now(),
          data,
          ...(event.data.turn === undefined ? {} : { turn: event.data.turn }),
        });
      }
    }
  })();
}

async function post(base: string, path: string, body: object): Promise<Record<string, unknown>> {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as Record<string, unknown>;
  if (!response.ok) throw new Error(`POST ${path}: ${String(response.status)} ${JSON.stringify(json)}`);
  return json;
}

const turnEnded = (frames: readonly Frame[], turn: number) => frames.some((frame) => frame.type === 'turn/end' && frame.turn === turn);

describe.skipIf(url === undefined)('two dsh serve processes on one database', () => {
  afterEach(() => {
    for (const child of started.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  });
  afterAll(async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  });

  it(
    "host B's SSE shows what host A writes within one second, each event once in order, and goes on when B opens the session itself",
    { timeout: 120_000 },
    async () => {
      const [a, b] = await Promise.all([serve(), serve()]);
      const { sessionId } = (await post(a.url, '/api/sessions', { title: 'watched from b' })) as { sessionId: string };
      const onA: Frame[] = [];
      const onB: Frame[] = [];
      const controller = new AbortController();
      try {
        await watchStream(a.url, sessionId, onA, controller.signal);
        await watchStream(b.url, sessionId, onB, controller.signal);
        for (const turn of [1, 2]) {
          await post(a.url, `/api/sessions/${sessionId}/messages`, { text: `turn ${String(turn)} from a` });
          await waitFor(`turn ${String(turn)} on host A`, () => turnEnded(onA, turn));
          await waitFor(`turn ${String(turn)} on host B`, () => turnEnded(onB, turn), 5_000);
        }
        const writtenByA = onA.length;
        // A's stream shows each event when A appends it (before it commits): B's delay from there bounds
        // the delay from A's commit.
        const atA = new Map(onA.map((frame) => [frame.seq, frame.at]));
        const delays = onB.filter((frame) => atA.has(frame.seq)).map((frame) => frame.at - (atA.get(frame.seq) ?? 0));
        expect(delays.length).toBeGreaterThan(0);
        expect(Math.max(...delays)).toBeLessThan(1_000);

        // A stops (its leases released); B opens the session by sending to it and runs turn 3 itself.
        a.child.kill('SIGTERM');
        expect(await a.exited).toBe(0);
        await post(b.url, `/api/sessions/${sessionId}/messages`, { text: 'turn 3 from b' });
        await waitFor('turn 3 on host B', () => turnEnded(onB, 3));
        const stored = (await (await fetch(`${b.url}/api/sessions/${sessionId}`)).json()) as { events: { seq: number }[] };
        await waitFor('every stored event on B', () => onB.length >= stored.events.length, 5_000);
        expect(onB.map((frame) => frame.seq)).toEqual(stored.events.map((_, index) => index));
        expect(onB.map((frame) => JSON.parse(frame.data) as unknown)).toEqual(stored.events);
        expect(onB.slice(0, writtenByA).map((frame) => frame.data)).toEqual(onA.map((frame) => frame.data));
      } finally {
        controller.abort();
      }
      b.child.kill('SIGTERM');
      expect(await b.exited).toBe(0);
    },
  );
});
