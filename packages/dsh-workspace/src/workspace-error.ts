/**
 * The one error class of dsh-workspace. Codes come from one table; the code union is its keys.
 */

/** Every refusal of dsh-workspace, with what it means. */
export const WORKSPACE_ERROR_CODES = {
  GIT_NOT_FOUND: 'the `git` program could not be started (not on PATH, or not executable)',
  GIT_FAILED: 'git ran and refused; the message carries what git said',
  NOT_A_GIT_REPOSITORY: 'a directory that should be inside a git checkout with a commit is not',
  NO_WORKSPACE: 'the working directory to capture, restore or compare does not exist or is not a directory',
  WORKTREE_EXISTS: 'the directory or branch a worktree would be created at already exists',
  BRANCH_EXISTS: 'the branch `dsh/<name>` a new worktree would be made on already exists in the repository',
  INVALID_BRANCH_NAME: 'a worktree name that does not make a git branch name `dsh/<name>` (or clashes with another of the same request)',
  WORKTREE_NOT_FOUND: 'no worktree dsh made (and recorded in its data folder) has that name',
  WORKTREE_HAS_CHANGES: 'removing the worktree would lose uncommitted changes',
  BRANCH_NOT_MERGED: "removing the worktree's branch would lose commits no other branch has",
  WORKSPACE_UNAVAILABLE: "a checkpoint's files are not in this data folder's workspace store",
  INVALID_OPTION: 'an option has a value outside its documented range',
} as const;

/** A code of `WORKSPACE_ERROR_CODES`. */
export type WorkspaceErrorCode = keyof typeof WORKSPACE_ERROR_CODES;

const MARK = Symbol.for('dsh.WorkspaceError');

/**
 * The only error dsh-workspace throws: `code` is stable. `WorkspaceError.is()` recognises instances
 * from another installed copy of the package.
 */
export class WorkspaceError extends Error {
  override readonly name = 'WorkspaceError';
  readonly code: WorkspaceErrorCode;
  /** What to do next, when there is something to say (a command to run, an option to use). */
  readonly hint: string | undefined;
  readonly [MARK] = true;

  constructor(code: WorkspaceErrorCode, message: string, options: { cause?: unknown; hint?: string } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.hint = options.hint;
  }

  static is(value: unknown): value is WorkspaceError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARK] === true;
  }
}
