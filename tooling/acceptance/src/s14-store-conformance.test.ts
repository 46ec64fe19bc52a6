/**
 * SPEC §14: one store contract, four backends — memory, the JSONL directory, PostgreSQL, and a
 * third-party backend written against dsh-session's public entry only (`public-backend.ts`), also
 * with only the five methods the public interface requires.
 */
import { join } from 'node:path';
import { createMemoryBackend, createMemoryStore, createSessionStore, openSessionStore, type SessionBackend } from 'dsh-session';
import { openPostgresStore } from 'dsh-postgres';
import pg from 'pg';
import { makeTempDir, postgresTestUrl, uniqueSchemaName } from '@dsh/test-utils';
import { describe } from 'vitest';
import { PublicBackend, type PublicStorage } from './public-backend.js';
import { defineStoreContract } from './store-contract.js';

defineStoreContract('memory', () => {
  const backend = createMemoryBackend();
  return Promise.resolve({ open: () => Promise.resolve(createMemoryStore({ backend })), cleanup: () => Promise.resolve() });
});

defineStoreContract('a third-party backend (the public interface only)', () => {
  const storage: PublicStorage = new Map();
  return Promise.resolve({
    open: () => Promise.resolve(createSessionStore({ backend: new PublicBackend(storage) })),
    cleanup: () => Promise.resolve(),
  });
});

defineStoreContract('a third-party backend with only the five required methods (no exists, holder, close; list reports held)', () => {
  const storage: PublicStorage = new Map();
  const minimal = (): SessionBackend => {
    const full = new PublicBackend(storage);
    return {
      create: (id, header, events) => full.create(id, header, events),
      acquire: (id) => full.acquire(id),
      read: (id) => full.read(id),
      // Without `holder`, `list()` says which sessions are held (SPEC §8: a held session lists busy).
      list: async () => (await full.list()).map((ref) => ({ ...ref, held: storage.get(ref.id)?.holder !== undefined })),
      delete: (id) => full.delete(id),
    };
  };
  return Promise.resolve({ open: () => Promise.resolve(createSessionStore({ backend: minimal() })), cleanup: () => Promise.resolve() });
});

defineStoreContract('JSONL directory', async () => {
  const dir = await makeTempDir();
  return { open: () => openSessionStore({ dir: join(dir.path, 'store') }), cleanup: () => dir.remove() };
});

const url = postgresTestUrl();
// Only used inside the suites that skip without a server.
const connectionString = url ?? '';
describe.skipIf(url === undefined)('PostgreSQL', () => {
  defineStoreContract('PostgreSQL', () => {
    const schema = uniqueSchemaName('contract');
    return Promise.resolve({
      open: () => openPostgresStore({ connectionString, schema }),
      async cleanup() {
        const client = new pg.Client({ connectionString });
        await client.connect();
        try {
          await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        } finally {
          await client.end();
        }
      },
    });
  });
});
