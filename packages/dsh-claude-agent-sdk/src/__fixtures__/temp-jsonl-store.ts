/**
 * @module __fixtures__/temp-jsonl-store
 * `openTempJsonlStore`: a JSONL dsh store in a fresh temporary directory, and the one call that closes
 * the store and removes the directory.
 */
import { openSessionStore, type SessionStore } from 'dsh-session';
import { makeTempDir, type TempDir } from '@dsh/test-utils';

/** A JSONL store in a new directory named from `prefix`; `close()` closes it, then removes the directory. */
export async function openTempJsonlStore(prefix: string): Promise<{ dir: TempDir; store: SessionStore; close: () => Promise<void> }> {
  const dir = await makeTempDir(prefix);
  const store = await openSessionStore({ dir: dir.path });
  return {
    dir,
    store,
    close: async () => {
      await store.close();
      await dir.remove();
    },
  };
}
