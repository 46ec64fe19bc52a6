/**
 * The two stores the shared store tests run against, with raw access to their storage so a test can
 * plant a log as a crashed writer would have left it and read what was stored.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { encodeJsonl, type SessionEvent, type SessionHeader } from 'dsh-codec';
import { createMemoryBackend, createMemoryStore, openSessionStore, type SessionBackend, type SessionStore } from 'dsh-session';
import { storedLogText } from './stored-log-text.js';
import { makeTempDir } from '@dsh/test-utils';

export type StoreKit = {
  store: SessionStore;
  /** Another store on the same storage (another process, for the JSONL store). */
  another(): Promise<SessionStore>;
  /** Stores a log as-is, with no lease held (a crashed writer's leftovers). */
  plant(header: SessionHeader, events: readonly SessionEvent[]): Promise<void>;
  /** What is stored for `id`, as comparable data. */
  raw(id: string): Promise<unknown>;
  cleanup(): Promise<void>;
};

export const storeKinds: { name: string; make(): Promise<StoreKit> }[] = [
  {
    name: 'memory store',
    make() {
      const backend: SessionBackend = createMemoryBackend();
      const stores: SessionStore[] = [createMemoryStore({ backend })];
      return Promise.resolve({
        store: stores[0]!,
        another() {
          const store = createMemoryStore({ backend });
          stores.push(store);
          return Promise.resolve(store);
        },
        async plant(header, events) {
          const writer = await backend.create(header.id, header, events);
          await writer.release();
        },
        async raw(id) {
          return structuredClone(await backend.read(id));
        },
        async cleanup() {
          for (const store of stores) await store.close();
        },
      });
    },
  },
  {
    name: 'JSONL store',
    async make() {
      const dir = await makeTempDir();
      const stores: SessionStore[] = [await openSessionStore({ dir: dir.path })];
      return {
        store: stores[0]!,
        async another() {
          const store = await openSessionStore({ dir: dir.path });
          stores.push(store);
          return store;
        },
        async plant(header, events) {
          await writeFile(join(dir.path, `${header.id}.jsonl`), encodeJsonl({ header, events }));
        },
        // The log as every reader sees it: a manifest with its segments (a fork may seal a parent's lines; its events stay).
        async raw(id) {
          return storedLogText(dir.path, id);
        },
        async cleanup() {
          for (const store of stores) await store.close();
          await dir.remove();
        },
      };
    },
  },
];
