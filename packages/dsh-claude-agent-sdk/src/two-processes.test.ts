import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { openPostgresStore } from 'dsh-postgres';
import { openSessionStore, type SessionStore } from 'dsh-session';
import { makeTempDir, postgresTestUrl, uniqueSchemaName } from '@dsh/test-utils';
import { createClaudeSessionStore, type SessionStoreEntry } from 'dsh-claude-agent-sdk';

const BATCHES = 25;
const SIZE = 8;
const url = postgresTestUrl();
const schema = uniqueSchemaName('claude_two');

afterAll(async () => {
  if (url === undefined) return;
  const admin = new pg.Pool({ connectionString: url, max: 1 });
  await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await admin.end();
});

/** Starts an append process; resolves `ready` on its ready line and `exited` with its exit code. */
function appender(args: Record<string, unknown>) {
  const child = spawn(
    process.execPath,
    ['--conditions=@dsh/source', '--import', 'tsx', join(import.meta.dirname, '__fixtures__', 'append-process.ts'), JSON.stringify(args)],
    {
      cwd: join(import.meta.dirname, '..'),
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const messages: string[] = [];
  let doneNow: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (doneNow = resolve));
  const ready = new Promise<void>((resolve) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      messages.push(line);
      if (line.includes('"ready"')) resolve();
      if (line.includes('"done"')) doneNow();
    });
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { child, ready, done, exited, messages };
}

/** Both writers' batches, each stored exactly once and contiguous in its writer's order. */
function expectWholeBatches(entries: readonly SessionStoreEntry[]): void {
  expect(entries).toHaveLength(2 * BATCHES * SIZE);
  expect(new Set(entries.map((entry) => entry.uuid)).size).toBe(entries.length);
  for (let start = 0; start < entries.length; start += SIZE) {
    const batch = entries.slice(start, start + SIZE);
    const first = batch[0] as SessionStoreEntry;
    // A batch never interleaves: SIZE consecutive entries of one writer's one batch, in order.
    expect(batch.map((entry) => [entry.writer, entry.batch, entry.index])).toEqual(
      batch.map((_, index) => [first.writer, first.batch, index]),
    );
  }
  for (const writer of ['w1', 'w2']) {
    const order = entries.filter((entry) => entry.writer === writer && entry.index === 0).map((entry) => entry.batch);
    expect(order).toEqual(Array.from({ length: BATCHES }, (_, batch) => batch));
  }
}

async function race(target: Record<string, unknown>): Promise<void> {
  const key = { projectKey: '-work-race', sessionId: `race-${String(process.pid)}` };
  const writers = ['w1', 'w2'].map((writer) => appender({ ...target, key, writer, batches: BATCHES, size: SIZE }));
  await Promise.all(writers.map((writer) => writer.ready));
  for (const writer of writers) writer.child.stdin.write('go\n');
  const codes = await Promise.all(writers.map((writer) => writer.exited));
  expect(codes, writers.map((writer) => writer.messages.join('\n')).join('\n--\n')).toEqual([0, 0]);
  const store: SessionStore =
    target.postgres === undefined
      ? await openSessionStore({ dir: target.dir as string })
      : await openPostgresStore({ connectionString: url ?? '', schema });
  try {
    const entries = await createClaudeSessionStore({ store }).load(key);
    expectWholeBatches(entries ?? []);
  } finally {
    await store.close();
  }
}

/** A writer killed (SIGKILL) while it holds the key's lease: the next writer takes over, nothing lost. */
async function killedHolder(target: Record<string, unknown>, open: () => Promise<SessionStore>): Promise<void> {
  const key = { projectKey: '-work-killed', sessionId: `killed-${String(process.pid)}-${String(Date.now())}` };
  const holder = appender({ ...target, key, writer: 'dead', batches: 2, size: SIZE, holdMs: 600_000, stay: true });
  await holder.ready;
  holder.child.stdin.write('go\n');
  await holder.done;
  const store = await open();
  // It really holds the lease when it dies (its hold outlasts the test).
  expect((await store.list()).filter((summary) => summary.title === 'killed holder').map((summary) => summary.busy)).toEqual([true]);
  holder.child.kill('SIGKILL');
  await holder.exited;
  const claude = createClaudeSessionStore({ store });
  try {
    await claude.append(key, [{ type: 'user', uuid: 'after-the-crash', writer: 'alive' }]);
    const entries = (await claude.load(key)) ?? [];
    expect(entries.map((entry) => entry.uuid)).toEqual([
      ...Array.from({ length: 2 * SIZE }, (_, at) => `dead-b${String(Math.floor(at / SIZE))}-e${String(at % SIZE)}`),
      'after-the-crash',
    ]);
  } finally {
    await claude.close();
    await store.close();
  }
}

describe('a writer killed while holding the key', () => {
  it('on a JSONL directory: the next append takes the lease over at once and loses nothing', async () => {
    await using dir = await makeTempDir('dsh-claude-killed-');
    await killedHolder({ dir: dir.path }, () => openSessionStore({ dir: dir.path }));
  });

  it.skipIf(url === undefined)(
    "on PostgreSQL: the next append waits out the dead holder's lease (leaseMs), then takes it over",
    async () => {
      await killedHolder({ postgres: { url, schema, leaseMs: 500 } }, () =>
        openPostgresStore({ connectionString: url ?? '', schema, leaseMs: 500 }),
      );
    },
  );
});

describe('two processes appending to one key at once', () => {
  it('on a JSONL directory: nothing is lost and batches never interleave', async () => {
    await using dir = await makeTempDir('dsh-claude-race-');
    await race({ dir: dir.path });
  });

  it.skipIf(url === undefined)('on PostgreSQL: nothing is lost and batches never interleave', async () => {
    await race({ postgres: { url, schema } });
  });
});
