/** `--database-url` / `$DSH_DATABASE_URL`: the CLI on PostgreSQL (SPEC §14), through the real bin. */
import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { makeTempDir, postgresTestUrl, printJson, runDsh, uniqueSchemaName } from '@dsh/test-utils';

const url = postgresTestUrl();

describe('dsh with an unreachable --database-url', () => {
  it('exits 1 with STORAGE_ERROR naming the host and port, no stack', { timeout: 60_000 }, async () => {
    const result = await runDsh(['sessions', '--database-url', 'postgres://dsh:hunter2@127.0.0.1:9/dsh']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^dsh: STORAGE_ERROR: .*127\.0\.0\.1:9.*connection refused/m);
    expect(result.stderr).not.toMatch(/hunter2|\n\s+at /);
  });
});

describe.skipIf(url === undefined)('dsh on PostgreSQL', () => {
  const schema = uniqueSchemaName('cli');
  const database = new URL(url ?? 'postgres://unset');
  database.searchParams.set('schema', schema);
  afterAll(async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  });

  it(
    'print mode, --resume --fork-session and sessions --tree work with --database-url and $DSH_DATABASE_URL',
    { timeout: 120_000 },
    async () => {
      const first = await printJson(['-p', 'hello there', '--name', 'base', '--database-url', database.toString()]);
      expect(first).toMatchObject({ isError: false });
      const forked = await printJson(['-p', 'again', '--resume', 'base', '--fork-session'], {
        env: { DSH_DATABASE_URL: database.toString() },
      });
      expect(forked.sessionId).not.toBe(first.sessionId);
      const tree = await runDsh(['sessions', '--tree', '--json'], { env: { DSH_DATABASE_URL: database.toString() } });
      expect(tree.code).toBe(0);
      expect(tree.stdout).toContain(String(first.sessionId));
      expect(tree.stdout).toContain(String(forked.sessionId));
      const home = await makeTempDir('dsh-cli-home-');
      try {
        // Without a database URL the JSONL directory stays the default: it holds none of them.
        const onDisk = await runDsh(['sessions', '--json'], { env: { DSH_DATABASE_URL: undefined, DSH_HOME: home.path } });
        expect(onDisk.code).toBe(0);
        expect(onDisk.stdout).not.toContain(String(first.sessionId));
      } finally {
        await home.remove();
      }
    },
  );
});
