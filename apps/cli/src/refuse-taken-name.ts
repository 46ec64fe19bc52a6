/**
 * @module refuse-taken-name
 * `--name` (print mode, `dsh fork`, interactive mode, `dsh rename`) refuses a name another session
 * already carries, naming that session (SPEC §25): a name then always means one session.
 */
import type { Host } from 'dsh-host';
import { CliError } from './cli-error.js';
import { terminalLine } from './terminal-text.js';

/** Throws `NAME_TAKEN` when a session other than `except` carries `name` as its title. */
export async function refuseTakenName(host: Host, name: string, except?: string): Promise<void> {
  const holder = (await host.list()).find((item) => item.title === name && item.id !== except);
  if (holder === undefined) return;
  throw new CliError(
    'NAME_TAKEN',
    `The name '${terminalLine(name)}' is taken by session ${holder.id}: expected a name no other session carries.`,
    { hint: `choose another name, or rename that session first: dsh rename ${holder.id} NEW-NAME` },
  );
}
