/** The warning printed when a new fork's working directory is already used by a live session (SPEC §20). */
import { resolve } from 'node:path';
import type { Host, SessionListItem } from 'dsh-host/core';

/**
 * A warning naming every other session that is live — in this process or held by another one —
 * with `cwd` as its working directory; `undefined` when none is. Forks share history, not files.
 * `listed`: the host's list (all sessions, or only the busy ones) when the caller already has it.
 */
export async function sharedCwdWarning(
  host: Host,
  sessionIds: readonly string[],
  cwd: string,
  listed?: readonly SessionListItem[],
): Promise<string | undefined> {
  const absolute = resolve(cwd);
  const others = (listed ?? (await host.list({ busy: true }))).filter(
    (item) =>
      !sessionIds.includes(item.id) && (item.live || item.status === 'busy') && item.cwd !== undefined && resolve(item.cwd) === absolute,
  );
  if (others.length === 0) return undefined;
  const named = others.map((item) => (item.title === undefined ? item.id : `${item.title} (${item.id})`)).join(', ');
  return `dsh: warning: ${absolute} is also the working directory of live session ${named}: forks share history, not files — give this one its own with --cwd DIR or --worktree\n`;
}
