/**
 * @module delete-transcript
 * The SDK's `delete`: a main key removes its transcript and every subkey's; a key with a subpath
 * removes only that subkey. A session this process holds is released first; one another process
 * holds is waited for (as appends wait). A key never written is nothing to do.
 */
import { SessionError } from 'dsh-session';
import { assertOpen, serialized, type ClaudeStoreContext } from './claude-store-context.js';
import { release, whenLeaseFree } from './hold-session.js';
import { checkSessionKey, dshSessionIdOf } from './session-key.js';

async function deleteOne(context: ClaudeStoreContext, id: string): Promise<void> {
  await serialized(context, id, async () => {
    await release(context, id);
    // Whatever is created at this id later is read (and its key checked) afresh.
    context.keys.delete(id);
    context.released.delete(id);
    await whenLeaseFree(context, id, async () => {
      try {
        await context.store.delete(id);
      } catch (error) {
        if (!(SessionError.is(error) && error.code === 'SESSION_NOT_FOUND')) throw error;
      }
    });
  });
}

/** Deletes `key` (and, for a main key, its subkeys first, so no subkey outlives its transcript). */
export async function deleteTranscript(context: ClaudeStoreContext, key: unknown): Promise<void> {
  assertOpen(context);
  const checked = checkSessionKey(key);
  const id = dshSessionIdOf(checked);
  if (checked.subpath === undefined) {
    const subkeys = (await context.store.list()).filter((summary) => summary.id.startsWith(`${id}-`)).map((summary) => summary.id);
    for (const subkey of subkeys) await deleteOne(context, subkey);
  }
  await deleteOne(context, id);
}
