/**
 * @module rename-command
 * `dsh rename ID|NAME NAME`.
 */
import type { CliContext } from '../cli-context.js';
import type { OptionValues } from '../parse-command-line.js';
import { refuseTakenName } from '../refuse-taken-name.js';
import { withHost } from '../with-host.js';
import { terminalLine } from '../terminal-text.js';

/** `dsh rename ID|NAME NAME`: appends a `session/title`; the latest name wins. */
export async function renameCommand(context: CliContext, values: OptionValues, ref: string, name: string): Promise<number> {
  const id = await withHost(context, values, async (host) => {
    const sessionId = await host.resolve(ref);
    await refuseTakenName(host, name, sessionId);
    await host.rename(sessionId, name);
    return sessionId;
  });
  context.stdout.write(`renamed ${terminalLine(id)} to "${terminalLine(name)}"\n`);
  return 0;
}
