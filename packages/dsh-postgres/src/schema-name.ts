import { SessionError } from 'dsh-session';

const SCHEMA = /^[a-z_][a-z0-9_]{0,62}$/;

/** The quoted identifier of a schema name; refuses anything but `[a-z_][a-z0-9_]{0,62}` before any SQL. */
export function quoteSchema(schema: string): string {
  if (!SCHEMA.test(schema)) {
    throw new SessionError(
      'STORAGE_ERROR',
      `Invalid PostgreSQL schema name: expected 1–63 characters of a-z, 0-9 and "_" not starting with a digit, received ${JSON.stringify(schema.slice(0, 70))}.`,
    );
  }
  return `"${schema}"`;
}
