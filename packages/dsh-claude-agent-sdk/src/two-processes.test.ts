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
  const child = spawn(process.execPath, ['--conditions=@dsh/source', '--import', 'tsx', join(import.meta.dirname, '__fixtures__', 'append-process.ts'), JSON.stringify(args)], {
    cwd: join(import.meta.dirname, '..'),
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const messages: string[] = [];
  const ready = new Promise<void>((resolve) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      messages.push(line);
      if (line.includes('"ready"')) resolve();
    });
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { child, ready, exited, messages };
}

/** Both writers' batches, each stored exactly once and contiguous in its writer's order. */
function expectWholeBatches(entries: readonly SessionStoreEntry[]): void {
  expect(entries).toHaveLength(2 * BATCHES * SIZE);
  expect(new Set(entries.map((entry) => entry.uuid)).size).toBe(entries.length);
  for (let start = 0; start < entries.length; start += SIZE) {
    const batch = entries.slice(start, start + SIZE);
    const first = batch[0] as SessionStoreEntry;
    // A batch never interleaves: SIZE consecutive entries of one writer's one batch, in order.
    expect(batch.map((entry) => [entry.writer, entry.batch, entry.index])).toEqual(batch.map((_, index) => [first.writer, first.batch, index]));
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
    target.postgres === undefined ? await openSessionStore({ dir: target.dir as string }) : await openPostgresStore({ connectionString: url ?? '', schema });
  try {
    const entries = await createClaudeSessionStore({ store }).load(key);
    expectWholeBatches(entries ?? []);
  } finally {
    await store.close();
  }
}

describe('two processes appending to one key at once', () => {
  it('on a JSONL directory: nothing is lost and batches never interleave', async () => {
    await using dir = await makeTempDir('dsh-claude-race-');
    await race({ dir: dir.path });
  });

  it.skipIf(url === undefined)('on PostgreSQL: nothing is lost and batches never interleave', async () => {
    await race({ postgres: { url, schema } });
  });
});
