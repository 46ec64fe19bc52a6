/**
 * @module delete-command
 * `dsh delete ID|NAME`.
 */
import type { CliContext } from '../cli-context.js';
import type { OptionValues } from '../parse-command-line.js';
import { withHost } from '../with-host.js';
import { terminalLine } from '../terminal-text.js';

/** `dsh delete ID|NAME`: deletes one stored session; `SESSION_BUSY` while a process holds it. */
export async function deleteCommand(context: CliContext, values: OptionValues, ref: string): Promise<number> {
  const { sessionId } = await withHost(context, values, (host) => host.delete(ref));
  context.stdout.write(values.json === true ? `${JSON.stringify({ sessionId, deleted: true })}\n` : `deleted ${terminalLine(sessionId)}\n`);
  return 0;
}
