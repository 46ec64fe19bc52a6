/**
 * The dsh stores a CLI test runs against: a JSONL data directory, and a PostgreSQL schema of its
 * own on `$DATABASE_URL` (skipped with a printed reason where there is none, a failure in CI).
 * Tests loop over `TEST_STORES` so one body checks both.
 */
import pg from 'pg';
import { makeTempDir, postgresTestUrl, uniqueSchemaName } from '@dsh/test-utils';

/** The kind of store: `--data DIR` or `--database-url URL`. */
export type TestStoreKind = 'jsonl' | 'postgres';

/** One store: the flags and the environment that point `dsh` at it; disposing it removes it. */
export type TestStore = AsyncDisposable & {
  kind: TestStoreKind;
  /** `['--data', DIR]` or `['--database-url', URL]`. */
  args: string[];
  /** `DSH_HOME` (JSONL) or `DSH_DATABASE_URL` (PostgreSQL, with a `DSH_HOME` that stays empty). */
  env: Record<string, string>;
};

const url = postgresTestUrl();

/** Each store kind with whether this machine can run it: `describe.skipIf(store.skip)(…)`. */
export const TEST_STORES: readonly { kind: TestStoreKind; skip: boolean }[] = [
  { kind: 'jsonl', skip: false },
  { kind: 'postgres', skip: url === undefined },
];

/** A fresh, empty store of `kind` (PostgreSQL: a new schema, dropped on dispose). */
export async function makeTestStore(kind: TestStoreKind): Promise<TestStore> {
  const home = await makeTempDir(`dsh-cli-${kind}-`);
  if (kind === 'jsonl')
    return { kind, args: ['--data', home.path], env: { DSH_HOME: home.path }, [Symbol.asyncDispose]: () => home.remove() };
  if (url === undefined) throw new Error('makeTestStore("postgres") needs DATABASE_URL; check TEST_STORES[].skip first');
  const schema = uniqueSchemaName('cli_store');
  const database = new URL(url);
  database.searchParams.set('schema', schema);
  return {
    kind,
    args: ['--database-url', database.toString()],
    env: { DSH_DATABASE_URL: database.toString(), DSH_HOME: home.path },
    [Symbol.asyncDispose]: async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
      await home.remove();
    },
  };
}
