/**
 * @module refuse-taken-name
 * A name (`title`) given over HTTP — create, rename, fork, import — is refused `NAME_TAKEN` when another
 * session carries it, as `dsh --name` and peer names are (SPEC §25): a name then means one session.
 */
import { HostError } from '../host-error.js';
import type { Host } from '../host-types.js';

/**
 * Throws `NAME_TAKEN` (409) naming the holder when a session other than `except` carries `name` as its
 * title — unless `forkKey` is given and the holder is the child forked under that Idempotency-Key (a retry).
 */
export async function refuseTakenName(host: Host, name: string, except?: string, forkKey?: string): Promise<void> {
  const holder = (await host.list()).find((item) => item.title === name && item.id !== except);
  if (holder === undefined) return;
  if (forkKey !== undefined && (await host.observe(holder.id)).header.forkRequest?.key === forkKey) return;
  throw new HostError(
    'NAME_TAKEN',
    `The name '${name}' is taken by session ${holder.id}: expected a name no other session carries (rename that session first, or choose another name).`,
  );
}
