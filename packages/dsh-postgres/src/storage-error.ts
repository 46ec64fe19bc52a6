/**
 * @module `STORAGE_ERROR` for PostgreSQL failures: where the pool connects (never the password) and why it failed.
 */
import { SessionError } from 'dsh-session';

/** Where a pool connects, for error messages: `host:port` (never the password). */
export function describeTarget(options: { connectionString?: string; host?: string; port?: number }): string {
  let host = options.host ?? process.env.PGHOST ?? 'localhost';
  let port = String(options.port ?? process.env.PGPORT ?? 5432);
  if (options.connectionString !== undefined) {
    try {
      const url = new URL(options.connectionString);
      if (url.hostname !== '') host = decodeURIComponent(url.hostname);
      if (url.port !== '') port = url.port;
    } catch {
      return 'the server named by the connection string (it is not a postgres:// URL)';
    }
  }
  return `${host}:${port}`;
}

/** Why a connection failed, in words, from a Node or PostgreSQL error. */
function reason(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  if (code === 'ECONNREFUSED') return 'connection refused (is the server running and listening there?)';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'the host name does not resolve';
  if (code === 'ETIMEDOUT') return 'the connection timed out';
  if (code === '28P01' || code === '28000') return `authentication failed: ${message}`;
  if (code === '3D000') return `the database does not exist: ${message}`;
  return message === '' ? (typeof code === 'string' ? code : 'unknown error') : message;
}

/** `STORAGE_ERROR` for a failure to reach or use PostgreSQL at `target`; one line, no stack in the message. */
export function storageError(target: string, what: string, error: unknown): SessionError {
  if (SessionError.is(error)) return error;
  return new SessionError('STORAGE_ERROR', `PostgreSQL at ${target}: could not ${what}: ${reason(error)}.`, { cause: error });
}
