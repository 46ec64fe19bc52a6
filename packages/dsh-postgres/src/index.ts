/**
 * @module dsh-postgres
 * dsh session logs on PostgreSQL: `openPostgresStore` gives a `SessionStore` (SPEC §14) that many hosts
 * share — one writer per session with fenced leases, group-committed appends, forks that copy nothing.
 */
export { openPostgresStore, type PostgresStoreOptions } from './open-postgres-store.js';
