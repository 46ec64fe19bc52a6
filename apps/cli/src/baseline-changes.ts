/**
 * @module baseline-changes
 * What `dsh peers --worktree` warns about when the peers start from HEAD (no checkpoint at the cut):
 * the changes of the baseline's checkout that HEAD lacks, which the peers therefore do not get (SPEC §25).
 */
import { findCheckout, runGit } from 'dsh-workspace';

/** The paths `git status` reports changed or untracked in the checkout holding `cwd` (empty outside git or when git fails). */
export async function uncommittedChanges(cwd: string | undefined): Promise<string[]> {
  if (cwd === undefined) return [];
  const checkout = await findCheckout(cwd).catch(() => undefined);
  if (checkout === undefined) return [];
  const status = await runGit(['status', '--porcelain=v1', '-z', '--untracked-files=all', '--ignore-submodules=all'], {
    gitDir: checkout.gitDir,
    workTree: checkout.root,
  });
  if (!status.ok) return [];
  const entries = status.stdout
    .toString('utf8')
    .split('\0')
    .filter((entry) => entry !== '');
  const paths: string[] = [];
  for (let index = 0; index < entries.length; index++) {
    const entry = entries[index] as string;
    paths.push(entry.slice(3));
    // A rename or copy is followed by its source path, which is not a change of its own.
    if (entry[0] === 'R' || entry[0] === 'C') index++;
  }
  return paths.sort();
}

/** The sentence naming those changes (at most five paths), or '' when there are none. */
export function uncommittedChangesSentence(paths: readonly string[]): string {
  if (paths.length === 0) return '';
  const named = `${paths.slice(0, 5).join(', ')}${paths.length > 5 ? `, … (${String(paths.length)} in all)` : ''}`;
  return ` The baseline's checkout has uncommitted changes the peers do not get (${named}): commit them and run dsh peers again to start the peers from them.`;
}
