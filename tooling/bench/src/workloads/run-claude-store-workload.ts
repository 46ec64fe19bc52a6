/**
 * Workload 9: dsh-claude-agent-sdk — on the JSONL store `append` of a 64-entry batch against one
 * write + fdatasync of the same bytes and `load` of a 10,000-entry transcript against `JSON.parse`
 * of the same entries as JSONL; on PostgreSQL `load` against a bare SELECT of the rows (issue 25's
 * targets: ≤ 2×, ≥ 0.5×, ≥ 0.5×).
 */
import { open, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { openPostgresStore } from 'dsh-postgres';
import { openSessionStore, type SessionStore } from 'dsh-session';
import pg from 'pg';
import { createClaudeSessionStore, type SessionStoreEntry } from 'dsh-claude-agent-sdk';
import type { BenchContext } from '../harness/bench-context.js';
import { figureOf, type Figure } from '../harness/figure.js';
import { parseLines } from '../harness/fs-baselines.js';
import { measureRounds, seriesOf, timeMs, timeSyncMs } from '../harness/measure-rounds.js';
import { findPostgresServer } from '../harness/postgres-server.js';
import type { Section } from '../harness/report.js';

const WORKLOAD = 'Claude Agent SDK store';
const BATCH = 64;
const BATCHES_PER_ROUND = 20;
const REPO_ROOT = resolve(import.meta.dirname, '../../../..');

/** Stores `count` generated entries under `key`, 500 per append. */
async function fill(
  claude: ReturnType<typeof createClaudeSessionStore>,
  key: { projectKey: string; sessionId: string },
  count: number,
): Promise<void> {
  for (let at = 0; at < count; at += 500)
    await claude.append(
      key,
      Array.from({ length: Math.min(500, count - at) }, (_, offset) => entry(1_000_000 + at + offset)),
    );
}

/**
 * `load` from PostgreSQL against a bare SELECT of the session's rows (what any reader must at least
 * transfer); no figure, with the reason as a note, when no server can be had.
 */
async function measurePostgresLoad(context: BenchContext, count: number, notes: string[]): Promise<Figure[]> {
  const server = await findPostgresServer(REPO_ROOT, context.log);
  if ('reason' in server) {
    notes.push(`PostgreSQL load not measured: ${server.reason}.`);
    return [];
  }
  const schema = `bench_claude_${String(process.pid)}_${Date.now().toString(36)}`;
  const pool = new pg.Pool({ connectionString: server.url, max: 2 });
  let store: SessionStore | undefined;
  try {
    store = await openPostgresStore({ connectionString: server.url, schema });
    const writer = createClaudeSessionStore({ store });
    const key = { projectKey: '-bench', sessionId: 'pg-load' };
    await fill(writer, key, count);
    await writer.close();
    const id = (await store.list())[0]?.id ?? '';
    const rate = (ms: number): number => count / (ms / 1000);
    const reader = store;
    const series = await measureRounds({
      runs: context.runs,
      warmup: 1,
      steps: {
        select: async () =>
          rate(
            await timeMs(() =>
              pool.query(
                `SELECT e.body FROM "${schema}".events e JOIN "${schema}".sessions s ON s.segment = e.segment WHERE s.id = $1 ORDER BY e.seq`,
                [id],
              ),
            ),
          ),
        load: async () => rate(await timeMs(() => createClaudeSessionStore({ store: reader }).load(key))),
      },
    });
    return [
      figureOf(
        {
          workload: WORKLOAD,
          label: `load of ${count.toLocaleString('en-US')} entries, PostgreSQL`,
          metric: 'entries/s',
          baselineLabel: 'bare SELECT of the same rows',
          target: { op: '>=', value: 0.5 },
        },
        seriesOf(series, 'load'),
        seriesOf(series, 'select'),
      ),
    ];
  } finally {
    await store?.close();
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
    await pool.end();
    await server.stop();
  }
}

/** Entry `index` of a generated transcript: prompts and replies of ~500 bytes, chained by parentUuid. */
function entry(index: number): SessionStoreEntry {
  return {
    parentUuid: index === 0 ? null : `e-${String(index - 1)}`,
    isSidechain: false,
    type: index % 2 === 0 ? 'user' : 'assistant',
    message: {
      role: index % 2 === 0 ? 'user' : 'assistant',
      content: [{ type: 'text', text: `entry ${String(index)}: ${'lorem ipsum dolor sit amet '.repeat(16)}` }],
    },
    uuid: `e-${String(index)}`,
    timestamp: '2026-12-02T10:00:00.000Z',
    sessionId: 'bench',
    cwd: '/work/app',
    version: '2.1.333',
  };
}

/** Runs the workload in `context.dataDir`. */
export async function runClaudeStoreWorkload(context: BenchContext): Promise<Section> {
  const { runs, log, dataDir } = context;
  const loadEntries = context.quick ? 2_000 : 10_000;
  const dir = join(dataDir, 'claude-store');
  const store = await openSessionStore({ dir });
  const claude = createClaudeSessionStore({ store });
  let next = 0;
  const batch = (): SessionStoreEntry[] => Array.from({ length: BATCH }, () => entry(next++));
  try {
    const big = { projectKey: '-bench', sessionId: 'load' };
    await fill(claude, big, loadEntries);
    const loaded = (await claude.load(big)) ?? [];
    const text = `${loaded.map((value) => JSON.stringify(value)).join('\n')}\n`;
    log(
      `claude-store: ${String(BATCHES_PER_ROUND)} batches of ${String(BATCH)} per round, load of ${String(loadEntries)} entries, ${String(runs)} rounds`,
    );
    const key = { projectKey: '-bench', sessionId: 'append' };
    await claude.append(key, batch());
    const raw = join(dataDir, 'claude-store-raw.jsonl');
    const series = await measureRounds({
      runs,
      warmup: 1,
      steps: {
        append: async () => {
          const batches = Array.from({ length: BATCHES_PER_ROUND }, batch);
          return (
            (await timeMs(async () => {
              for (const one of batches) await claude.append(key, one);
            })) / BATCHES_PER_ROUND
          );
        },
        rawBatch: async () => {
          const chunks = Array.from(
            { length: BATCHES_PER_ROUND },
            () =>
              `${batch()
                .map((value) => JSON.stringify(value))
                .join('\n')}\n`,
          );
          const handle = await open(raw, 'a');
          try {
            return (
              (await timeMs(async () => {
                for (const chunk of chunks) {
                  await handle.write(chunk);
                  await handle.datasync();
                }
              })) / BATCHES_PER_ROUND
            );
          } finally {
            await handle.close();
            await rm(raw, { force: true });
          }
        },
        load: async () => loadEntries / ((await timeMs(() => createClaudeSessionStore({ store }).load(big))) / 1000),
        parse: () => Promise.resolve(loadEntries / (timeSyncMs(() => parseLines(text)) / 1000)),
      },
    });
    const notes: string[] = [];
    const postgres = await measurePostgresLoad(context, loadEntries, notes);
    return {
      title: '9. Claude Agent SDK session store (dsh-claude-agent-sdk)',
      method: `
\`createClaudeSessionStore({ store: openSessionStore(…) })\` as the Claude Agent SDK calls it. Append:
${String(BATCHES_PER_ROUND)} batches of ${String(BATCH)} transcript entries (~700 bytes each) per round to one key, each awaited (durable
when it resolves), the session's lease held across them; baseline: one \`write\` + \`datasync()\` of the
same batch as JSONL. Load: \`load(key)\` of a ${loadEntries.toLocaleString('en-US')}-entry transcript by a fresh store object
(the dsh store reads the session's verified file and parses each line once into entries the caller owns: \`observation.copyEvents()\`); baseline: \`JSON.parse\` of each
line of the same entries as JSONL. On PostgreSQL (\`DATABASE_URL\`, else a throwaway server): \`load\` of
the same number of entries against a bare \`SELECT\` of the session's rows.`,
      figures: [
        figureOf(
          {
            workload: WORKLOAD,
            label: `append of a ${String(BATCH)}-entry batch`,
            metric: 'ms',
            baselineLabel: 'write + fdatasync of the same bytes',
            target: { op: '<=', value: 2 },
          },
          seriesOf(series, 'append'),
          seriesOf(series, 'rawBatch'),
        ),
        figureOf(
          {
            workload: WORKLOAD,
            label: `load of ${loadEntries.toLocaleString('en-US')} entries, JSONL`,
            metric: 'entries/s',
            baselineLabel: 'JSON.parse per line',
            target: { op: '>=', value: 0.5 },
          },
          seriesOf(series, 'load'),
          seriesOf(series, 'parse'),
        ),
        ...postgres,
      ],
      notes: [
        ...notes,
        'Where load’s time goes: reading the file and checking its verified stamp (CRC-32), then one `JSON.parse` per line into values the SDK owns (`observation.copyEvents()`: neither frozen nor kept by the store; docs/decisions/2026-12-07-owned-event-copies.md); each line holds the dsh envelope around the entry, so it parses more bytes than the baseline.',
        'Not measured here yet: the SDK’s own InMemorySessionStore as a reference row (issue 25).',
      ],
    };
  } finally {
    await claude.close();
    await store.close();
  }
}
