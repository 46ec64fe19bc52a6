/**
 * The PostgreSQL server tests run against: `DATABASE_URL`. Without it, PostgreSQL tests skip with a
 * printed reason — except in CI (`CI` or `DSH_REQUIRE_POSTGRES` set), where a missing server fails
 * the run instead of silently testing less. `scripts/postgres.sh` starts a throwaway server.
 */
export function postgresTestUrl(): string | undefined {
  const url = process.env.DATABASE_URL;
  if (url !== undefined && url !== '') return url;
  const required = (process.env.CI ?? '') !== '' || (process.env.DSH_REQUIRE_POSTGRES ?? '') !== '';
  if (required) {
    throw new Error(
      'DATABASE_URL is not set, and CI or DSH_REQUIRE_POSTGRES requires the PostgreSQL tests to run: ' +
        'run them through `bash scripts/postgres.sh pnpm vitest run …` (starts a throwaway server) or set DATABASE_URL.',
    );
  }
  console.warn('PostgreSQL tests skipped: DATABASE_URL is not set (bash scripts/postgres.sh CMD… starts a throwaway server).');
  return undefined;
}

/** A schema name of its own for one test file or case: `prefix` plus a random suffix, valid for dsh-postgres. */
export function uniqueSchemaName(prefix: string): string {
  return `${prefix
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, '_')
    .slice(0, 40)}_${Math.random().toString(36).slice(2, 10)}`;
}
