/**
 * @module refuse-git-path
 * The file tools never touch a repository's own folder (SPEC §27): a `.git` file or folder can point
 * git at config that starts a program, so any path with a `.git` part — in any spelling a file system
 * may treat as `.git`, named directly or reached through a symbolic link — is refused `PATH_REFUSED`.
 */
import { AgentError } from './agent-error.js';

/**
 * Whether `name` is git's folder by some spelling: `.git` in any case, with trailing dots or spaces
 * (which Windows drops), or its 8.3 short name `git~1`.
 */
export function isGitName(name: string): boolean {
  const folded = name.toLowerCase().replace(/[. ]+$/u, '');
  return folded === '.git' || folded === 'git~1';
}

/**
 * Throws `PATH_REFUSED` when one of `names` (the parts of a path below the cwd) is a `.git` name.
 * `argument` is what the model sent; `through` says the part was reached through a symbolic link.
 */
export function refuseGitPath(argument: string, names: readonly string[], through?: 'link'): void {
  const found = names.find(isGitName);
  if (found === undefined) return;
  throw new AgentError(
    'PATH_REFUSED',
    `expected a path outside every .git folder, received ${JSON.stringify(argument)}${through === 'link' ? ', which leads into' : ', which names'} ${JSON.stringify(found)}: the file tools never read or write git's own files`,
  );
}
