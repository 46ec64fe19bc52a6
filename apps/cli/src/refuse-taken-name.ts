/**
 * @module refuse-taken-name
 * `--name` (print mode, `dsh fork`, `dsh import`, interactive mode, `dsh rename`) refuses a name another session
 * already carries, naming that session (SPEC §25): a name then always means one session.
 */
import { CliError } from './cli-error.js';
import { terminalLine } from './terminal-text.js';

/** Where the names are: a host, or a store (`dsh import` writes through the store alone). */
export type NameHolders = { list(): Promise<readonly { id: string; title?: string }[]> };

/**
 * A fork retried under an idempotency key: its `key`, and how to read the key a session was forked under
 * (the header's `forkRequest`), so the child the key made may keep its name.
 */
export type ForkRetry = { key: string; keyOf: (sessionId: string) => Promise<string | undefined> };

/** Throws `NAME_TAKEN` when a session other than `except` (or than the child `retry`'s key made) carries `name` as its title. */
export async function refuseTakenName(sessions: NameHolders, name: string, except?: string, retry?: ForkRetry): Promise<void> {
  const holder = (await sessions.list()).find((item) => item.title === name && item.id !== except);
  if (holder === undefined) return;
  if (retry !== undefined && (await retry.keyOf(holder.id)) === retry.key) return;
  throw new CliError(
    'NAME_TAKEN',
    `The name '${terminalLine(name)}' is taken by session ${holder.id}: expected a name no other session carries.`,
    { hint: `choose another name, or rename that session first: dsh rename ${holder.id} NEW-NAME` },
  );
}
