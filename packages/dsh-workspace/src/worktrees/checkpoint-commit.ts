/**
 * @module checkpoint-commit
 * A commit in the user's repository whose tree is the checkout's files with the session's cwd set to a
 * checkpoint's tree (SPEC §23): the objects of the tree the repository lacks copied from the data folder's
 * workspace store (`pack-objects` → `unpack-objects`), the folders above a cwd below the root
 * written again (`mktree`), `commit-tree`. All git runs through `runGit`.
 */
import { resolve } from 'node:path';
import { gitFailed, runGit } from '../run-git.js';

/** The identity of the commits dsh makes (never the user's config, which `runGit` does not read for this). */
const DSH_IDENTITY = {
  GIT_AUTHOR_NAME: 'dsh',
  GIT_AUTHOR_EMAIL: 'dsh@localhost',
  GIT_COMMITTER_NAME: 'dsh',
  GIT_COMMITTER_EMAIL: 'dsh@localhost',
};

/** Above this many objects the copy is kept as one pack (`index-pack`), as `git fetch` does; below, loose objects. */
const UNPACK_LIMIT = 100;

/** `path` as one entry of git's colon-separated alternates list (C-quoted when it holds a colon or a quote). */
export function alternateEntry(path: string): string {
  if (!/[:"\\\n\t]/.test(path)) return path;
  const quoted = path.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('\n', '\\n').replaceAll('\t', '\\t');
  return `"${quoted}"`;
}

/**
 * Copies into the repository at `commonDir` the objects of `tree` (in the store at `storeDir`) that are
 * not reachable from `have`, a tree of that repository (the parent commit's): a checkout of the parent
 * needs those anyway, so the repository holds them. One `pack-objects` walks both trees in the
 * repository with the store as an alternate object folder for that call only, and one `unpack-objects`
 * (or `index-pack` past UNPACK_LIMIT objects) writes them without it: the repository ends self-contained,
 * no `alternates` file names the store. Returns the number of objects copied.
 */
export async function copyTreeObjects(storeDir: string, tree: string, commonDir: string, have?: string): Promise<number> {
  const revs = have === undefined ? `${tree}\n` : `${tree}\n--not\n${have}\n`;
  const packed = await runGit(['pack-objects', '--revs', '--stdout', '-q', '--window=0'], {
    gitDir: commonDir,
    input: revs,
    // Written for one pipe: fast compression (unpack-objects compresses each loose object again).
    config: [['pack.compression', '1']],
    env: { GIT_ALTERNATE_OBJECT_DIRECTORIES: alternateEntry(resolve(storeDir, 'objects')) },
  });
  if (!packed.ok) throw gitFailed(`packing checkpoint ${tree}`, packed);
  const count = packed.stdout.length >= 12 ? packed.stdout.readUInt32BE(8) : 0;
  if (count === 0) return 0;
  // Without the alternate: with it, git would see every object as present already and write none.
  const args = count > UNPACK_LIMIT ? ['index-pack', '--stdin'] : ['unpack-objects', '-q'];
  const written = await runGit(args, { gitDir: commonDir, input: packed.stdout });
  if (!written.ok) throw gitFailed(`copying checkpoint ${tree} into ${commonDir}`, written);
  return count;
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
  message: string;
};

/**
 * Makes the commit and returns its id: `parent`'s tree with `subdir` replaced by `tree`. When that is
 * `parent`'s own tree (the session changed nothing git tracks), `parent` itself: the worktree then
 * starts at HEAD, as SPEC §20 promises, with no empty commit of dsh's on the branch.
 */
export async function checkpointCommit(input: CheckpointCommitInput): Promise<string> {
  const { commonDir, tree, parent, subdir } = input;
  const resolved = await runGit(['rev-parse', '--verify', '--quiet', `${parent}^{tree}`], { gitDir: commonDir });
  const parentTree = resolved.ok ? resolved.stdout.toString('utf8').trim() : undefined;
  // The session changed nothing git tracks: no object to copy, no commit to make.
  if (subdir === '' && tree === parentTree) return parent;
  await copyTreeObjects(input.storeDir, tree, commonDir, parentTree);
  const root = subdir === '' ? tree : await treeWithSubdir(commonDir, parentTree, subdir, tree);
  if (root === parentTree) return parent;
  const made = await runGit(['commit-tree', root, '-p', parent, '-m', input.message], { gitDir: commonDir, env: DSH_IDENTITY });
  if (!made.ok) throw gitFailed(`git commit-tree for checkpoint ${tree}`, made);
  return made.stdout.toString('utf8').trim();
}

/** The empty tree's id (SHA-1, SHA-256): a checkpoint of an empty cwd, which leaves no folder in a commit. */
const EMPTY_TREES = new Set([
  '4b825dc642cb6eb9a060e54bf8d69288fbee4904',
  '6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321',
]);

/** One line of `git ls-tree -z` (the format `git mktree -z` reads): mode, type, id, then the name. */
type TreeEntry = { line: string; type: string; id: string; name: string };

async function treeEntries(commonDir: string, tree: string): Promise<TreeEntry[]> {
  const listed = await runGit(['ls-tree', '-z', '--full-tree', tree], { gitDir: commonDir });
  if (!listed.ok) throw gitFailed(`git ls-tree ${tree}`, listed);
  return listed.stdout
    .toString('utf8')
    .split('\0')
    .filter((line) => line !== '')
    .map((line) => {
      const tab = line.indexOf('\t');
      const [, type = '', id = ''] = line.slice(0, tab).split(' ');
      return { line, type, id, name: line.slice(tab + 1) };
    });
}

/**
 * `parentTree` with the folder `subdir` replaced by `tree`: only the folders on the path to `subdir`
 * are read (`ls-tree`) and written again (`mktree`), bottom up; a folder left empty goes, as git
 * keeps no empty folder. Costs two git processes per level, whatever the size of the checkout.
 */
async function treeWithSubdir(commonDir: string, parentTree: string | undefined, subdir: string, tree: string): Promise<string> {
  const names = subdir.split(/[\\/]/).filter((name) => name !== '');
  const levels: TreeEntry[][] = [];
  let folder = parentTree;
  for (const name of names) {
    const entries = folder === undefined ? [] : await treeEntries(commonDir, folder);
    levels.push(entries);
    const next = entries.find((entry) => entry.name === name && entry.type === 'tree');
    folder = next?.id;
  }
  let child: string | undefined = EMPTY_TREES.has(tree) ? undefined : tree;
  for (let depth = names.length - 1; depth >= 0; depth -= 1) {
    const name = names[depth] as string;
    const kept = (levels[depth] as TreeEntry[]).filter((entry) => entry.name !== name).map((entry) => entry.line);
    if (child !== undefined) kept.push(`040000 tree ${child}\t${name}`);
    if (kept.length === 0 && depth > 0) {
      child = undefined;
      continue;
    }
    // --missing: the entries come from trees of the repository; no lookup of each (nor a lazy fetch in a partial clone).
    const made = await runGit(['mktree', '-z', '--missing'], { gitDir: commonDir, input: kept.map((line) => `${line}\0`).join('') });
    if (!made.ok) throw gitFailed(`git mktree for ${names.slice(0, depth + 1).join('/')} of checkpoint ${tree}`, made);
    child = made.stdout.toString('utf8').trim();
  }
  return child as string;
}
