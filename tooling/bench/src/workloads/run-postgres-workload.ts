import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { serializeEvent, type SessionEvent } from 'dsh-codec';
import { createHost } from 'dsh-host';
import { openPostgresStore } from 'dsh-postgres';
import type { SessionStore } from 'dsh-session';
import pg from 'pg';
import type { BenchContext } from '../harness/bench-context.js';
import { figureOf, type Figure } from '../harness/figure.js';
import { formatBytes } from '../harness/format.js';
import { copyAndFsync } from '../harness/fs-baselines.js';
import { measureRounds, roundsFor, seriesOf, timeMs } from '../harness/measure-rounds.js';
import { findPostgresServer } from '../harness/postgres-server.js';
import type { Section } from '../harness/report.js';
import { findOpenStepCut } from '../generate/find-open-step-cut.js';
import { generateV4Log, v4Jsonl } from '../generate/generate-v4-log.js';

const WORKLOAD = 'PostgreSQL';
const TITLE = '6. PostgreSQL store (dsh-postgres)';
const WRITERS = 64;
const REPO_ROOT = resolve(import.meta.dirname, '../../../..');

/**
 * Workload 6: the PostgreSQL store on a real server — fork of a small and a 10× larger parent
 * (against each other, and against copying the larger parent's JSONL file), durable append by 64
 * writers on one session (against one INSERT + commit per event), and open of the larger parent
 * (against a bare SELECT of the same rows). Skipped, with the reason, when no server can be had.
 */
export async function runPostgresWorkload(context: BenchContext): Promise<Section> {
  const server = await findPostgresServer(REPO_ROOT, context.log);
  if ('reason' in server) {
    context.log(`postgres: skipped — ${server.reason}`);
    return { title: `${TITLE}: skipped`, method: 'Needs a PostgreSQL server.', figures: [], notes: [`Skipped: ${server.reason}.`] };
  }
  const schema = `bench_${String(process.pid)}_${Date.now().toString(36)}`;
  const pool = new pg.Pool({ connectionString: server.url, max: 4 });
  const stores: SessionStore[] = [];
  const pools: pg.Pool[] = [];
  try {
    const open = async (hostId: string, readCacheBytes?: number): Promise<SessionStore> => {
      const store = await openPostgresStore({
        connectionString: server.url,
        schema,
        hostId,
        ...(readCacheBytes === undefined ? {} : { readCacheBytes }),
      });
      stores.push(store);
      return store;
    };
    let writer: SessionStore;
    try {
      writer = await open('bench-writer');
    } catch (error) {
      const reason = `no PostgreSQL reachable at DATABASE_URL (${error instanceof Error ? error.message : String(error)})`;
      context.log(`postgres: skipped — ${reason}`);
      return { title: `${TITLE}: skipped`, method: 'Needs a PostgreSQL server.', figures: [], notes: [`Skipped: ${reason}.`] };
    }
    const version = await pool.query<{ server_version: string }>('SHOW server_version');
    context.recordVersion('PostgreSQL server', version.rows[0]?.server_version ?? 'unknown');
    // The cold side reads parents the writer store holds open, as another host would: one reads every
    // row each time (no read cache), the other read them before and transfers only rows written since.
    const reader = await open('bench-reader', 0);
    const rereader = await open('bench-rereader');
    // A store given its pool cannot load lines synchronously from a worker: its forks by id read the parent whole (as every cold fork did before).
    const wholePool = new pg.Pool({ connectionString: server.url, max: 4, options: '-c jit=off' });
    const whole = await openPostgresStore({ pool: wholePool, schema, hostId: 'bench-whole', readCacheBytes: 0 });
    stores.push(whole);
    pools.push(wholePool);
    const figures: Figure[] = [];
    const notes: string[] = [];
    const [small, large] = context.quick ? [1_000, 10_000] : [10_000, 100_000];
    figures.push(...(await measureForks(context, { writer, reader, rereader, whole, url: server.url, schema }, small, large, notes)));
    figures.push(...(await measureAppend(context, writer, pool, schema, notes)));
    figures.push(...(await measureOpen(context, reader, pool, schema, large)));
    return { title: TITLE, method: method(small, large), figures, notes };
  } finally {
    await Promise.allSettled(stores.map((store) => store.close()));
    await Promise.allSettled(pools.map((open) => open.end()));
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
    await pool.end();
    await server.stop();
  }
}

/** Stores a generated parent of `size` events in `store` (as an import: one transaction) and returns it. */
async function storeParent(store: SessionStore, size: number): Promise<{ id: string; events: SessionEvent[]; text: string }> {
  const id = `pg-parent-${String(size)}`;
  const log = generateV4Log({ events: size, seed: 31, id });
  await store.import({ header: log.header, events: log.events });
  return { id, events: log.events, text: v4Jsonl(log) };
}

/**
 * The stores a fork is timed on: the writer holds the parents open; the readers are other hosts (without
 * and with a read cache, and one given its pool, which reads a parent whole); `url` and `schema` open a
 * fresh store and host per fork (a user's `dsh fork --database-url`, a restarted server).
 */
type ForkStores = { writer: SessionStore; reader: SessionStore; rereader: SessionStore; whole: SessionStore; url: string; schema: string };

/** One fork through the HTTP API of a host opened (with its own store) for this fork alone; only the request is timed. */
async function forkOverFreshHost(url: string, schema: string, parentId: string, atSeq: number): Promise<{ ms: number; childId: string }> {
  const store = await openPostgresStore({ connectionString: url, schema, hostId: 'bench-fresh' });
  const host = createHost({ store });
  try {
    let childId = '';
    const ms = await timeMs(async () => {
      const response = await host.fetch(
        new Request(`http://127.0.0.1/api/sessions/${parentId}/fork`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ atSeq }),
        }),
      );
      const body = (await response.json()) as { sessionId?: string };
      if (response.status !== 201 || body.sessionId === undefined)
        throw new Error(`HTTP fork answered ${String(response.status)}: ${JSON.stringify(body)}`);
      childId = body.sessionId;
    });
    await host.release(childId);
    await store.delete(childId);
    return { ms, childId };
  } finally {
    await host.close();
    await store.close();
  }
}

/** Titles appended to the parent before each fork of a store that read it before: the rows written since, which that fork transfers. */
const WRITTEN_SINCE = 10;

async function measureForks(
  context: BenchContext,
  { writer, reader, rereader, whole, url, schema }: ForkStores,
  small: number,
  large: number,
  notes: string[],
): Promise<Figure[]> {
  const { runs, log } = context;
  log(`postgres: storing parents of ${String(small)} and ${String(large)} events`);
  const parents = { small: await storeParent(writer, small), large: await storeParent(writer, large) };
  const cuts = {
    small: findOpenStepCut(parents.small.events, Math.floor(small / 2)),
    large: findOpenStepCut(parents.large.events, Math.floor(large / 2)),
  };
  const largeFile = join(context.dataDir, `${parents.large.id}.jsonl`);
  await writeFile(largeFile, parents.large.text);
  notes.push(
    `Fork parents: ${small.toLocaleString('en-US')} and ${large.toLocaleString('en-US')} events (JSONL file of the larger: ${formatBytes(Buffer.byteLength(parents.large.text))}), cut in an open step at the middle.`,
  );
  notes.push(
    'What grows with the prefix. The database work of every fork is constant (one segment row referring to the parent’s, the child’s own marker and closers), and a fork of a parent open in this store copies nothing in memory: it reads the parent’s log through a snapshot (its cut and latest turn only) and the child `Session` keeps the parent’s events as an inherited prefix. ' +
      'A fork by id from another store that has not read the parent reads a window (the turns around the cut, the latest turn, the latest title and config: schema step 7’s index) and the child loads its other inherited events on first read, synchronously, from a worker thread (docs/decisions/2026-12-07-postgres-cold-fork-reads-a-window.md); a store given its own pool cannot load so and transfers every row, as every cold fork did before (its own row, for comparison). ' +
      'The user’s cold fork row opens a store and a host for each fork (as `dsh fork --database-url` or a restarted `dsh serve` does) and times the HTTP fork request. ' +
      `A store that read the parent before keeps its lines (\`readCacheBytes\`, default 64 MiB) and transfers only the rows written since: ${String(WRITTEN_SINCE)} titles are appended to the parent before each of its forks (untimed).`,
  );
  const live = { small: await writer.open(parents.small.id), large: await writer.open(parents.large.id) };
  let children = 0;
  const fork = async (store: SessionStore, which: 'small' | 'large'): Promise<number> => {
    const id = `pg-child-${String(++children)}`;
    let close = (): Promise<void> => Promise.resolve();
    const ms = await timeMs(async () => {
      const child = await store.fork(parents[which].id, { atSeq: cuts[which], id });
      close = () => child.close();
    });
    await close();
    await store.delete(id);
    return ms;
  };
  /** A fork by a store that read the parent before, after the parent grew by a few rows. */
  const forkAgain = async (which: 'small' | 'large'): Promise<number> => {
    for (let index = 0; index < WRITTEN_SINCE; index++) live[which].append('session/title', { title: `since ${String(index)}` });
    await live[which].flush();
    return fork(rereader, which);
  };
  // The re-reader reads each parent once before the rounds (as a host that served or listed it would have).
  await rereader.observe(parents.small.id);
  await rereader.observe(parents.large.id);
  log(`postgres: forks, ${String(runs)} rounds`);
  let series;
  try {
    series = await measureRounds({
      runs: roundsFor(runs, large),
      warmup: 1,
      steps: {
        liveSmall: () => fork(writer, 'small'),
        liveLarge: () => fork(writer, 'large'),
        coldSmall: () => fork(reader, 'small'),
        coldLarge: () => fork(reader, 'large'),
        wholeSmall: () => fork(whole, 'small'),
        wholeLarge: () => fork(whole, 'large'),
        freshSmall: async () => (await forkOverFreshHost(url, schema, parents.small.id, cuts.small)).ms,
        freshLarge: async () => (await forkOverFreshHost(url, schema, parents.large.id, cuts.large)).ms,
        againSmall: () => forkAgain('small'),
        againLarge: () => forkAgain('large'),
        copyLarge: () => copyAndFsync(largeFile, join(context.dataDir, 'copy.tmp')),
      },
    });
  } finally {
    await live.small.close();
    await live.large.close();
  }
  const smallLabel = `${small.toLocaleString('en-US')} events`;
  const largeLabel = `${large.toLocaleString('en-US')} events`;
  return [
    figureOf(
      {
        workload: WORKLOAD,
        label: `fork, parent open in this store, ${largeLabel}`,
        metric: 'ms',
        baselineLabel: `the same fork, ${smallLabel}`,
        target: { op: '<=', value: 1.5 },
      },
      seriesOf(series, 'liveLarge'),
      seriesOf(series, 'liveSmall'),
    ),
    figureOf(
      {
        workload: WORKLOAD,
        label: `fork, parent open in this store, ${largeLabel}`,
        metric: 'ms',
        baselineLabel: `JSONL copy of the parent + fsync, ${largeLabel}`,
        target: { op: '<=', value: 1 },
      },
      seriesOf(series, 'liveLarge'),
      seriesOf(series, 'copyLarge'),
    ),
    figureOf(
      {
        workload: WORKLOAD,
        label: `cold fork as a user's: HTTP fork on a fresh host and store (as \`dsh fork --database-url\`, a restarted server), ${largeLabel}`,
        metric: 'ms',
        baselineLabel: `the same fork, ${smallLabel}`,
        target: { op: '<=', value: 1.5 },
      },
      seriesOf(series, 'freshLarge'),
      seriesOf(series, 'freshSmall'),
    ),
    figureOf(
      {
        workload: WORKLOAD,
        label: `fork from another store that never read the parent (store.fork by id: a window of rows), ${largeLabel}`,
        metric: 'ms',
        baselineLabel: `the same fork, ${smallLabel}`,
        target: { op: '<=', value: 1.5 },
      },
      seriesOf(series, 'coldLarge'),
      seriesOf(series, 'coldSmall'),
    ),
    figureOf(
      {
        workload: WORKLOAD,
        label: `fork from another store that never read the parent (store.fork by id: a window of rows), ${largeLabel}`,
        metric: 'ms',
        baselineLabel: `JSONL copy of the parent + fsync, ${largeLabel}`,
        target: { op: '<=', value: 1 },
      },
      seriesOf(series, 'coldLarge'),
      seriesOf(series, 'copyLarge'),
    ),
    figureOf(
      {
        workload: WORKLOAD,
        label: `fork from another store given its pool (reads the parent whole, as every cold fork did before), ${largeLabel}`,
        metric: 'ms',
        baselineLabel: `the same fork, ${smallLabel}`,
      },
      seriesOf(series, 'wholeLarge'),
      seriesOf(series, 'wholeSmall'),
    ),
    figureOf(
      {
        workload: WORKLOAD,
        label: `fork from another store that read the parent before (${String(WRITTEN_SINCE)} rows written since), ${largeLabel}`,
        metric: 'ms',
        baselineLabel: `the same fork, ${smallLabel}`,
        target: { op: '<=', value: 1.5 },
      },
      seriesOf(series, 'againLarge'),
      seriesOf(series, 'againSmall'),
    ),
    figureOf(
      {
        workload: WORKLOAD,
        label: `fork from another store that read the parent before (${String(WRITTEN_SINCE)} rows written since), ${largeLabel}`,
        metric: 'ms',
        baselineLabel: `JSONL copy of the parent + fsync, ${largeLabel}`,
        target: { op: '<=', value: 1 },
      },
      seriesOf(series, 'againLarge'),
      seriesOf(series, 'copyLarge'),
    ),
  ];
}

async function measureAppend(
  context: BenchContext,
  store: SessionStore,
  pool: pg.Pool,
  schema: string,
  notes: string[],
): Promise<Figure[]> {
  const { quick, runs, log } = context;
  const events = generateV4Log({ events: quick ? 2_000 : 10_000, seed: 11 }).events;
  const perInsert = quick ? 200 : 500;
  const lines = events.slice(0, perInsert).map((event) => serializeEvent(event));
  await pool.query(`CREATE TABLE "${schema}".baseline_events (seq integer PRIMARY KEY, body text NOT NULL)`);
  let sessions = 0;
  const writers = async (count: number): Promise<number> => {
    const session = await store.create({ id: `pg-append-${String(++sessions)}` });
    let next = 0;
    const ms = await timeMs(async () => {
      const loop = async (): Promise<void> => {
        for (let event = events[next]; event !== undefined; event = events[next]) {
          next += 1;
          session.append(event.type, event.data);
          await session.flush();
        }
      };
      await Promise.all(Array.from({ length: count }, loop));
    });
    await session.close();
    return events.length / (ms / 1000);
  };
  const insertPerEvent = async (): Promise<number> => {
    const client = await pool.connect();
    try {
      await client.query(`TRUNCATE "${schema}".baseline_events`);
      const ms = await timeMs(async () => {
        for (const [seq, body] of lines.entries())
          await client.query(`INSERT INTO "${schema}".baseline_events (seq, body) VALUES ($1, $2)`, [seq, body]);
      });
      return lines.length / (ms / 1000);
    } finally {
      client.release();
    }
  };
  log(`postgres: durable append, ${String(runs)} rounds`);
  const series = await measureRounds({
    runs,
    warmup: 1,
    steps: { baseline: insertPerEvent, one: () => writers(1), many: () => writers(WRITERS) },
  });
  notes.push(
    `Durable append: ${events.length.toLocaleString('en-US')} events per run through \`append\` + \`await flush()\` per event; the baseline inserts ${String(perInsert)} of the same serialized events, one autocommitted \`INSERT\` each, on one connection.`,
  );
  return [
    figureOf(
      {
        workload: WORKLOAD,
        label: `durable append, ${String(WRITERS)} writers, one session`,
        metric: 'events/s',
        baselineLabel: 'one INSERT + commit per event',
        target: { op: '>=', value: 20 },
      },
      seriesOf(series, 'many'),
      seriesOf(series, 'baseline'),
    ),
    figureOf(
      { workload: WORKLOAD, label: 'durable append, 1 writer', metric: 'events/s', baselineLabel: 'one INSERT + commit per event' },
      seriesOf(series, 'one'),
      seriesOf(series, 'baseline'),
    ),
  ];
}

async function measureOpen(context: BenchContext, store: SessionStore, pool: pg.Pool, schema: string, size: number): Promise<Figure[]> {
  const { runs, log } = context;
  const id = `pg-parent-${String(size)}`;
  // Forks appended titles after the marker the writer's open left: one open settles the log (its
  // marker), then count what is stored; every timed open finds it settled and grows nothing.
  await (await store.open(id)).close();
  const stored = (await store.inspect(id)).events.length;
  const rate = (ms: number): number => stored / (ms / 1000);
  log(`postgres: open of ${String(size)} events, ${String(runs)} rounds`);
  const series = await measureRounds({
    runs: roundsFor(runs, size),
    warmup: 1,
    steps: {
      select: async () =>
        rate(
          await timeMs(async () => {
            const { rowCount } = await pool.query(
              `SELECT e.body FROM "${schema}".events e JOIN "${schema}".sessions s ON s.segment = e.segment WHERE s.id = $1 ORDER BY e.seq`,
              [id],
            );
            if (rowCount !== stored) throw new Error(`bare SELECT read ${String(rowCount)} rows, expected ${String(stored)}`);
          }),
        ),
      open: async () =>
        rate(
          await timeMs(async () => {
            const session = await store.open(id);
            if (session.events.length !== stored)
              throw new Error(`open read ${String(session.events.length)} events, expected ${String(stored)}`);
            await session.close();
          }),
        ),
    },
  });
  return [
    figureOf(
      {
        workload: WORKLOAD,
        label: `open + close, ${size.toLocaleString('en-US')} events`,
        metric: 'events/s',
        baselineLabel: 'bare SELECT of the same rows',
        target: { op: '>=', value: 0.5 },
      },
      seriesOf(series, 'open'),
      seriesOf(series, 'select'),
    ),
  ];
}

function method(small: number, large: number): string {
  return `
A real PostgreSQL server (\`DATABASE_URL\`, else a throwaway one from \`scripts/postgres.sh\`), one fresh
schema per run, \`openPostgresStore\` with its own pool per store. **Fork**: parents of
${small.toLocaleString('en-US')} and ${large.toLocaleString('en-US')} generated events stored once, cut inside an open step at the middle; each fork
is timed until the durable child is returned, then the child is closed and deleted. *Parent open in this
store*: the store forks from its in-memory log (how a host forks a session it serves). *From another
store*: a second store (another host) forks by id — a window of the parent's rows when it has not read
the parent before (a store opened with \`readCacheBytes: 0\`; one given its own pool reads every row), or only the rows written since
its last read (a store that read the parent once before the rounds; ${String(WRITTEN_SINCE)} titles are
appended to the parent before each of its forks, untimed). *A user's cold fork*: a store and a host opened
for each fork, the HTTP fork request timed (\`POST /api/sessions/:id/fork\`). The
child refers to the parent's segment in every case (no prefix rows copied). Baselines: the same fork
of the smaller parent (does cost grow with the prefix?) and copying the larger parent's JSONL file +
fsync (what the JSONL store's copy costs). **Durable append**: writers share one session, each appends
an event and awaits \`flush()\` (group commit: one multi-row INSERT and one commit per batch); the
baseline inserts the same serialized events one autocommitted \`INSERT\` at a time. **Open**:
\`SessionStore.open\` + \`close\` of the larger parent (take the lease, read every row with its seal check,
parse every line — rows dsh-postgres sealed are not validated again, see docs/storage.md — repair,
release the lease) against a bare \`SELECT\` of the same rows.`;
}
