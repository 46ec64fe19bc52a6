/**
 * @module Schema names checked and quoted before any SQL, and the LISTEN/NOTIFY channel named after them.
 */
import { createHash } from 'node:crypto';
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

/**
 * The LISTEN/NOTIFY channel of a schema: `dsh_<schema>`, or `dsh_` and a hash of the name when that
 * would pass the server's 63-byte limit (`pg_notify` refuses a longer channel, which failed every
 * append under a schema name of 60 characters or more).
 */
export function channelOf(schemaName: string): string {
  const channel = `dsh_${schemaName}`;
  return channel.length <= 63 ? channel : `dsh_${createHash('sha256').update(schemaName).digest('hex').slice(0, 16)}`;
}
