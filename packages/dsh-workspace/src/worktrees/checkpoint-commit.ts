/**
 * @module checkpoint-commit
 * A commit in the user's repository whose tree is the checkout's files with the session's cwd set to a
 * checkpoint's tree (SPEC §23): the tree's objects copied from the data folder's workspace store
 * (`pack-objects` → `unpack-objects`), a private index, `commit-tree`. All git runs through `runGit`.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { gitFailed, runGit } from '../run-git.js';

/** The identity of the commits dsh makes (never the user's config, which `runGit` does not read for this). */
const DSH_IDENTITY = {
  GIT_AUTHOR_NAME: 'dsh',
  GIT_AUTHOR_EMAIL: 'dsh@localhost',
  GIT_COMMITTER_NAME: 'dsh',
  GIT_COMMITTER_EMAIL: 'dsh@localhost',
};

/** Copies `tree` and everything it holds from the store at `storeDir` into the repository at `commonDir`. */
export async function copyTreeObjects(storeDir: string, tree: string, commonDir: string): Promise<void> {
  const listed = await runGit(['rev-list', '--objects', '--no-object-names', tree], { gitDir: storeDir });
  if (!listed.ok) throw gitFailed(`listing the objects of checkpoint ${tree}`, listed);
  const packed = await runGit(['pack-objects', '--stdout', '-q'], { gitDir: storeDir, input: listed.stdout });
  if (!packed.ok) throw gitFailed(`packing checkpoint ${tree}`, packed);
  const unpacked = await runGit(['unpack-objects', '-q'], { gitDir: commonDir, input: packed.stdout });
  if (!unpacked.ok) throw gitFailed(`copying checkpoint ${tree} into ${commonDir}`, unpacked);
}

/** What `checkpointCommit` builds from. */
export type CheckpointCommitInput = {
  storeDir: string;
  commonDir: string;
  /** The checkpoint's tree (the files of the session's cwd). */
  tree: string;
  /** The commit the files are compared with: HEAD when the checkpoint was taken, else today's. */
  parent: string;
  /** Where the cwd sits in the checkout ('' for its root). */
  subdir: string;
  /** A folder of dsh's for the private index. */
  scratchDir: string;
  message: string;
};

/**
 * Makes the commit and returns its id: `parent`'s tree with `subdir` replaced by `tree`. When that is
 * `parent`'s own tree (the session changed nothing git tracks), `parent` itself: the worktree then
 * starts at HEAD, as SPEC §20 promises, with no empty commit of dsh's on the branch.
 */
export async function checkpointCommit(input: CheckpointCommitInput): Promise<string> {
  const { commonDir, tree, parent, subdir } = input;
  await copyTreeObjects(input.storeDir, tree, commonDir);
  const root = subdir === '' ? tree : await treeWithSubdir(input);
  const parentTree = await runGit(['rev-parse', '--verify', '--quiet', `${parent}^{tree}`], { gitDir: commonDir });
  if (parentTree.ok && parentTree.stdout.toString('utf8').trim() === root) return parent;
  const made = await runGit(['commit-tree', root, '-p', parent, '-m', input.message], { gitDir: commonDir, env: DSH_IDENTITY });
  if (!made.ok) throw gitFailed(`git commit-tree for checkpoint ${tree}`, made);
  return made.stdout.toString('utf8').trim();
}

/** `parent`'s tree with the folder `subdir` replaced by `tree` (a private index, removed after). */
async function treeWithSubdir(input: CheckpointCommitInput): Promise<string> {
  const index = join(input.scratchDir, `.index-${process.pid}-${randomBytes(6).toString('hex')}`);
  const target = { gitDir: input.commonDir, indexFile: index };
  const prefix = `${input.subdir.split('\\').join('/')}/`;
  try {
    const read = await runGit(['read-tree', `${input.parent}^{tree}`], target);
    if (!read.ok) throw gitFailed(`reading ${input.parent}'s tree`, read);
    const inside = await runGit(['ls-files', '-z', '--', prefix], target);
    if (!inside.ok) throw gitFailed(`listing ${prefix} in ${input.parent}`, inside);
    if (inside.stdout.length > 0) {
      const removed = await runGit(['update-index', '-z', '--force-remove', '--stdin'], { ...target, input: inside.stdout });
      if (!removed.ok) throw gitFailed(`taking ${prefix} out of ${input.parent}'s tree`, removed);
    }
    const placed = await runGit(['read-tree', `--prefix=${prefix}`, input.tree], target);
    if (!placed.ok) throw gitFailed(`placing checkpoint ${input.tree} at ${prefix}`, placed);
    const written = await runGit(['write-tree'], target);
    if (!written.ok) throw gitFailed(`writing the tree of checkpoint ${input.tree}`, written);
    return written.stdout.toString('utf8').trim();
  } finally {
    await rm(index, { force: true });
  }
}
