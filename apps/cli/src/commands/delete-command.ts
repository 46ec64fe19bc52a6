/**
 * @module delete-command
 * `dsh delete ID|NAME`; a directory dsh made for that session with `--worktree` goes with it.
 */
import { resolveDataDir, type CliContext } from '../cli-context.js';
import { openWorktrees } from 'dsh-workspace';
import { asCliError } from '../fork-worktree-at-cut.js';
import type { OptionValues } from '../parse-command-line.js';
import { withHost } from '../with-host.js';
import { terminalLine } from '../terminal-text.js';

/** `dsh delete ID|NAME`: deletes one stored session and the worktree dsh made for it; `SESSION_BUSY` while a process holds it. */
export async function deleteCommand(context: CliContext, values: OptionValues, ref: string): Promise<number> {
  const { sessionId } = await withHost(context, values, (host) => host.delete(ref));
  const removed = await openWorktrees({ dataDir: resolveDataDir(context, values.data) })
    .removeFor(sessionId)
    .catch((error: unknown) => {
      throw asCliError(error);
    });
  if (values.json === true) {
    context.stdout.write(
      `${JSON.stringify({ sessionId, deleted: true, ...(removed.length === 0 ? {} : { removedWorktrees: removed }) })}\n`,
    );
    return 0;
  }
  context.stdout.write(`deleted ${terminalLine(sessionId)}\n`);
  for (const path of removed) context.stdout.write(`removed the worktree dsh made for it: ${terminalLine(path)}\n`);
  return 0;
}
