/**
 * @module check-worktree-name
 * Which peer names make a worktree (SPEC §20, §27): `dsh/<name>` must be a branch name git accepts,
 * so the name can never be an absolute path, hold `..` or an empty part, or start a part with `.`
 * (which also keeps `.git` out) — the one rule for creating and for `dsh peers --remove`.
 */
import { WorkspaceError } from '../workspace-error.js';

/** Longest peer name, in bytes: its worktree folder and record file names stay well inside `NAME_MAX`. */
const MAX_NAME_BYTES = 100;

/** Why `name` cannot be a peer's branch name, or undefined when it can (git's `check-ref-format --branch` rules). */
function whyNotBranch(name: string): string | undefined {
  if (name === '') return 'it is empty';
  if (Buffer.byteLength(name) > MAX_NAME_BYTES) return `it is over ${String(MAX_NAME_BYTES)} bytes`;
  if (name.startsWith('/')) return 'it starts with / (an absolute path)';
  if (name.endsWith('/')) return 'it ends with /';
  if (name.includes('//')) return 'it has an empty part (//)';
  if (name.includes('..')) return 'it holds ..';
  if (name.includes('@{') || name === '@') return 'it holds @{ or is @';
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\u0000-\u0020\u007f~^:?*[\\]/u.test(name)) return 'it holds a space, a control character or one of ~ ^ : ? * [ \\';
  if (name.endsWith('.')) return 'it ends with .';
  for (const part of name.split('/')) {
    if (part.startsWith('.')) return `its part '${part}' starts with .`;
    if (part.endsWith('.lock')) return `its part '${part}' ends with .lock`;
  }
  return undefined;
}

/**
 * Throws `INVALID_BRANCH_NAME` unless `name` makes a valid branch `dsh/<name>` — the same rule for
 * `--worktree` and `--remove`, so a name can never reach outside `DATA/worktrees/`.
 */
export function checkWorktreeName(name: string): void {
  const why = whyNotBranch(name);
  if (why === undefined) return;
  throw new WorkspaceError(
    'INVALID_BRANCH_NAME',
    `Peer name ${JSON.stringify(name)} does not make a git branch name (dsh/${name}): ${why}; expected letters, digits, '-', '_', '.' or '/' between non-empty parts.`,
  );
}

/** Whether two branch names cannot both exist: equal, or one is a folder of the other (`x` and `x/y`). */
export function branchesClash(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
}
