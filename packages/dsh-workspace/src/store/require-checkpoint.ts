/**
 * @module require-checkpoint
 * SPEC §23 on PostgreSQL: each host keeps its own workspace store, so a checkpoint recorded in a shared
 * log may have its files on another host. Before a fork or restore uses a checkpoint, this refuses
 * `WORKSPACE_UNAVAILABLE` naming the host (and store) the checkpoint event says holds them.
 */
import { runGit } from '../run-git.js';
import { WorkspaceError } from '../workspace-error.js';
import { checkObjectId, type StoreContext } from './store-context.js';

/** A checkpoint as `workspaceAt` reads it: its tree, and where it was taken when the event recorded that. */
export type CheckpointPlace = { tree: string; seq?: number; host?: string; storeDir?: string };

/** Resolves when `checkpoint.tree` is in this store; else `WORKSPACE_UNAVAILABLE` naming where it was taken. */
export async function requireCheckpoint(context: StoreContext, host: string, checkpoint: CheckpointPlace): Promise<void> {
  checkObjectId('tree', checkpoint.tree);
  await context.ready();
  const found = await runGit(['cat-file', '-e', `${checkpoint.tree}^{tree}`], { gitDir: context.dir });
  if (found.ok) return;
  const which = `The files of the checkpoint${checkpoint.seq === undefined ? '' : ` at seq ${String(checkpoint.seq)}`} (tree ${checkpoint.tree})`;
  const here = `this host "${host}" (workspace store ${context.dir})`;
  let message: string;
  if (checkpoint.host === undefined) {
    message = `${which} are not in ${here}, and the checkpoint does not record the host that took it: run this where the session's files were checkpointed.`;
  } else if (checkpoint.host !== host) {
    message = `${which} are on host "${checkpoint.host}"${checkpoint.storeDir === undefined ? '' : ` (workspace store ${checkpoint.storeDir})`}, not on ${here}: run this on host "${checkpoint.host}".`;
  } else {
    message = `${which} were taken on this host in the workspace store ${checkpoint.storeDir ?? '(not recorded)'}, not in ${context.dir}: run this with that data folder.`;
  }
  throw new WorkspaceError('WORKSPACE_UNAVAILABLE', message, {
    hint: 'fork without --worktree to keep the files where they are; each host keeps its own checkpoints (docs/workspace.md)',
  });
}
