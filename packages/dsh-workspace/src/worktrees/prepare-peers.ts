/**
 * @module prepare-peers
 * Every peer's own directory holding the workspace at one cut (SPEC §20, §23): in a git checkout one
 * commit of the checkpoint (or HEAD without one) and a worktree on `dsh/<name>` per peer; outside git,
 * with a checkpoint and the peers' ids, the checkpoint written into a folder per peer. Each peer's intent is recorded
 * before its directory when its child id is known, as for one fork.
 */
import type { WorkspaceStore } from '../open-workspace-store.js';
import type { SkippedPath } from '../store/capture-tree.js';
import { WorkspaceError } from '../workspace-error.js';
import { addWorktrees, checkoutOf, checkWorktreesFree, type BaselineCheckout } from './add-worktrees.js';
import { checkpointCommit } from './checkpoint-commit.js';
import { undoForkIntent, writeForkIntent, type ForkWorktreeIntent } from './fork-intent.js';
import { prepareWorktree, type WorktreeCheckpoint } from './prepare-worktree.js';
import { removeWorktree } from './remove-worktree.js';

/** What `preparePeers` is asked for: the baseline, its cwd and checkpoint at the cut, one name (and, when known, child id) per peer. */
export type PreparePeersInput = {
  sourceId: string;
  sourceCwd: string | undefined;
  checkpoint: WorktreeCheckpoint | undefined;
  peers: readonly { name: string; childId?: string }[];
};

/** The peers' directories, in order, and what they hold. */
export type PreparedPeers = {
  workspace: 'checkpoint' | 'head';
  dirs: { name: string; dir: string; branch?: string }[];
  checkpointSeq?: number;
  skipped?: SkippedPath[];
  /** Set with `head`: the directories hold HEAD, not the files at the cut. */
  warning?: string;
  /** Removes every directory, branch and intent made (nothing is lost: no peer ran in them yet). */
  undo: () => Promise<void>;
};

/**
 * Makes each peer's directory. Refuses, before anything is made, `NOT_A_GIT_REPOSITORY` (outside git
 * without a checkpoint), `INVALID_BRANCH_NAME`, `BRANCH_EXISTS`, `WORKTREE_EXISTS`; `NO_WORKSPACE`,
 * `GIT_NOT_FOUND`. On a failure midway what was made is removed.
 */
export async function preparePeers(dataDir: string, store: WorkspaceStore, input: PreparePeersInput): Promise<PreparedPeers> {
  const { sourceId, checkpoint, peers } = input;
  // Files on another host (PostgreSQL shares the log, not the store): refused before anything is made.
  if (checkpoint !== undefined) await store.require(checkpoint);
  let checkout: BaselineCheckout;
  try {
    checkout = await checkoutOf(input.sourceCwd, sourceId, dataDir);
  } catch (error) {
    // Outside git only a checkpoint can fill the folders, and only peers whose ids are known are recorded.
    const recordable = peers.every((peer) => peer.childId !== undefined);
    if (!WorkspaceError.is(error) || error.code !== 'NOT_A_GIT_REPOSITORY' || checkpoint === undefined || !recordable) throw error;
    return materializedPeers(dataDir, store, input, checkpoint);
  }
  const names = peers.map((peer) => peer.name);
  await checkWorktreesFree(checkout, dataDir, names);
  const intents: ForkWorktreeIntent[] = peers.flatMap((peer) =>
    peer.childId === undefined
      ? []
      : [{ version: 1 as const, name: peer.name, childId: peer.childId, kind: 'git' as const, pid: process.pid }],
  );
  const undo = async (): Promise<void> => {
    for (const name of names) await removeWorktree(dataDir, name, true).catch(() => undefined);
    for (const intent of intents) await undoForkIntent(dataDir, intent).catch(() => undefined);
  };
  try {
    for (const intent of intents) await writeForkIntent(dataDir, intent);
    let head = checkout.head;
    if (checkpoint !== undefined) {
      head = await checkpointCommit({
        storeDir: store.dir,
        commonDir: checkout.commonDir,
        tree: checkpoint.tree,
        parent: checkpoint.head ?? checkout.head,
        subdir: checkout.subdir,
        message: `dsh: the workspace of ${sourceId} at seq ${String(checkpoint.seq)} (peers)`,
      });
    }
    const cwds = await addWorktrees({ ...checkout, head }, dataDir, names);
    return {
      ...holding(checkpoint, sourceId),
      dirs: names.map((name, index) => ({ name, dir: cwds[index] as string, branch: `dsh/${name}` })),
      undo,
    };
  } catch (error) {
    await undo();
    throw error;
  }
}

/** Outside git: the checkpoint written into a folder per peer (each a fork child's directory with its intent). */
async function materializedPeers(
  dataDir: string,
  store: WorkspaceStore,
  input: PreparePeersInput,
  checkpoint: WorktreeCheckpoint,
): Promise<PreparedPeers> {
  const made: { name: string; dir: string; undo: () => Promise<void> }[] = [];
  const undo = async (): Promise<void> => {
    for (const one of made) await one.undo().catch(() => undefined);
  };
  try {
    for (const peer of input.peers) {
      const prepared = await prepareWorktree(dataDir, store, {
        sourceId: input.sourceId,
        sourceCwd: input.sourceCwd,
        checkpoint,
        name: peer.name,
        childId: peer.childId as string,
      });
      made.push({ name: peer.name, dir: prepared.dir, undo: prepared.undo });
    }
  } catch (error) {
    await undo();
    throw error;
  }
  return { ...holding(checkpoint, input.sourceId), dirs: made.map(({ name, dir }) => ({ name, dir })), undo };
}

function holding(
  checkpoint: WorktreeCheckpoint | undefined,
  sourceId: string,
): Pick<PreparedPeers, 'workspace' | 'checkpointSeq' | 'skipped' | 'warning'> {
  if (checkpoint === undefined)
    return {
      workspace: 'head',
      warning: `${sourceId} has no workspace checkpoint at or before the cut: the peers' worktrees hold the repository's HEAD, not the files at the cut.`,
    };
  return {
    workspace: 'checkpoint',
    ...(checkpoint.seq === undefined ? {} : { checkpointSeq: checkpoint.seq }),
    ...(checkpoint.skipped === undefined ? {} : { skipped: checkpoint.skipped }),
  };
}
