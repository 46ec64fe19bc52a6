/**
 * @module list-files
 * The files of a checkpoint tree, read from the store.
 */
import { gitFailed, runGit } from '../run-git.js';
import { assertTree, checkObjectId, type StoreContext } from './store-context.js';

/** One file of a tree: its path, git mode (`100644`, `100755`, `120000` for a link) and object id. */
export type TreeFile = { path: string; mode: string; object: string };

/** Every file of `tree`, sorted by path; `WORKSPACE_UNAVAILABLE` when the store lacks it. */
export async function listFiles(context: StoreContext, tree: string): Promise<TreeFile[]> {
  checkObjectId('tree', tree);
  await assertTree(context, tree);
  const listed = await runGit(['ls-tree', '-r', '-z', '--full-tree', tree], { gitDir: context.dir });
  if (!listed.ok) throw gitFailed(`listing tree ${tree}`, listed);
  const files: TreeFile[] = [];
  for (const line of listed.stdout.toString('utf8').split('\0')) {
    const tab = line.indexOf('\t');
    if (tab < 0) continue;
    const [mode = '', , object = ''] = line.slice(0, tab).split(' ');
    files.push({ path: line.slice(tab + 1), mode, object });
  }
  return files;
}
