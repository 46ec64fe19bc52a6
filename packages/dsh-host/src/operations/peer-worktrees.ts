/**
 * @module peer-worktrees
 * `host.peers(ref, { worktree: true })` (SPEC §20, §23): the cut selected once on the baseline's one
 * observation, and every peer's own directory holding the workspace at it, made by the host's worktree
 * maker with each peer's id recorded first; each peer is then forked there, `workspace: 'at-cut'`
 * when its directory holds the checkpoint.
 */
import { randomUUID } from 'node:crypto';
import type { SessionObservation } from 'dsh-session';
import { PrintableTitle } from 'dsh-session';
import { cleanWorktreeOrphans, refuseCwdWithWorktree, worktreeNameOf } from './fork-worktree.js';
import type { HostContext } from '../host-context.js';
import type { PeersOptions } from '../host-types.js';
import { cwdAtCut, worktreeError, worktreesOf, type WorktreeInfo } from './host-worktrees.js';
import { selectForkCut } from './select-fork-cut.js';

/** Every peer's directory, id and `workspace` option, the one cut, and how to remove the directories of peers not forked. */
export type PeerDirectories = {
  cut: number;
  peers: { id: string; worktree: WorktreeInfo; workspace?: 'at-cut' }[];
  /** Removes the directories (and intents) of every peer whose index is not in `forked`: they were never forked. */
  undoExcept(forked: ReadonlySet<number>): Promise<void>;
};

/** Makes the peers' directories (nothing is forked yet); refusals as `HostError`s with the maker's codes. @internal */
export async function peerDirectories(
  context: HostContext,
  source: SessionObservation,
  options: PeersOptions,
  titles: readonly (string | PrintableTitle)[],
  existing: ReadonlySet<string>,
): Promise<PeerDirectories> {
  const worktrees = worktreesOf(context.options.worktrees);
  for (const [index, request] of options.peers.entries()) refuseCwdWithWorktree(request.config, `Peer ${String(index + 1)}`);
  const cut = selectForkCut(source.events, options.atSeq);
  const ids = options.peers.map((request) => request.id ?? randomUUID());
  await cleanWorktreeOrphans(context, worktrees, existing);
  const baseline = source.sessionId;
  let made;
  try {
    made = await worktrees.preparePeers({
      sourceId: baseline,
      sourceCwd: cwdAtCut(source.events, cut) ?? source.header.cwd ?? context.options.cwd,
      checkpoint: worktrees.workspaceAt(source.events, cut),
      peers: titles.map((title, index) => ({
        name: worktreeNameOf(PrintableTitle.is(title) ? title.text : title),
        childId: ids[index] as string,
      })),
    });
  } catch (error) {
    throw worktreeError(error);
  }
  const holds: Omit<WorktreeInfo, 'dir' | 'branch'> = { workspace: made.workspace };
  if (made.checkpointSeq !== undefined) holds.checkpointSeq = made.checkpointSeq;
  if (made.skipped !== undefined) holds.skipped = made.skipped;
  if (made.warning !== undefined) holds.warning = made.warning;
  return {
    cut,
    peers: made.dirs.map((entry, index) => ({
      id: ids[index] as string,
      worktree: { ...holds, dir: entry.dir, ...(entry.branch === undefined ? {} : { branch: entry.branch }) },
      ...(made.workspace === 'checkpoint' ? { workspace: 'at-cut' as const } : {}),
    })),
    undoExcept: async (forked) => {
      for (const id of ids.filter((_, index) => !forked.has(index)))
        await worktrees.removeFor(id).catch((error: unknown) => {
          context.logger.error(`Removing the directory of peer ${id}, which was not forked, failed`, error);
        });
    },
  };
}
