/**
 * @module resolve-in-cwd
 * `resolveInCwd`: a tool's path argument resolved inside the session's cwd (`PATH_OUTSIDE_CWD`,
 * `PATH_TOO_LONG`, `PATH_REFUSED`), with the path shown to the model and the file-kind check the tools share.
 */
import { lstat, realpath, stat } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { AgentError } from './agent-error.js';
import { checkPathLimits } from './check-path-limits.js';
import { refuseGitPath } from './refuse-git-path.js';

/**
 * Resolves a tool's `path` argument inside `cwd` and returns the absolute path. Refuses
 * (`PATH_OUTSIDE_CWD`) any path that leaves `cwd`, lexically or through a symbolic link, and
 * (`PATH_TOO_LONG`) one over `PATH_MAX`, `NAME_MAX` or the depth cap (`PATH_LIMITS`), and
 * (`PATH_REFUSED`) one with a `.git` part, named or reached through a link.
 */
export async function resolveInCwd(cwd: string, path: string): Promise<string> {
  if (path.includes('\0')) throw outside(path, cwd);
  let root: string;
  try {
    root = await realpath(cwd);
  } catch (cause) {
    throw new AgentError('FILE_NOT_FOUND', `the working directory ${cwd} does not exist`, { cause });
  }
  const target = resolve(root, path);
  if (!isInside(root, target)) throw outside(path, cwd);
  const names = relative(root, target)
    .split(sep)
    .filter((name) => name !== '');
  checkPathLimits(path, target, names);
  refuseGitPath(path, [...names, ...path.split(/[\\/]/u)]);
  // Follow links through the deepest entry of the path that exists: it must still be inside.
  // A dangling link is refused too, since writing through it would land wherever it points.
  let existing = target;
  for (;;) {
    if (await entryExists(existing)) {
      let real: string;
      try {
        real = await realpath(existing);
      } catch {
        throw outside(path, cwd);
      }
      if (!isInside(root, real)) throw outside(path, cwd);
      const resolved = existing === target ? real : resolve(real, relative(existing, target));
      refuseGitPath(path, relative(root, resolved).split(sep), 'link');
      return resolved;
    }
    const parent = dirname(existing);
    if (parent === existing) throw outside(path, cwd);
    existing = parent;
  }
}

async function entryExists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    return false;
  }
}

/** The path as shown to the model: relative to `cwd`, with `/` separators, `.` for `cwd` itself. */
export function displayPath(root: string, absolute: string): string {
  const rel = relative(root, absolute);
  return rel === '' ? '.' : rel.split(sep).join('/');
}

/** Throws `FILE_NOT_FOUND` or `WRONG_FILE_KIND` unless `absolute` is the wanted kind. */
export async function expectKind(absolute: string, shown: string, kind: 'file' | 'directory'): Promise<void> {
  let isDirectory: boolean;
  try {
    isDirectory = (await stat(absolute)).isDirectory();
  } catch (cause) {
    throw new AgentError('FILE_NOT_FOUND', `${shown} does not exist in the working directory`, { cause });
  }
  if (isDirectory !== (kind === 'directory')) {
    throw new AgentError('WRONG_FILE_KIND', `expected ${shown} to be a ${kind}, received a ${isDirectory ? 'directory' : 'file'}`);
  }
}

function isInside(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

function outside(path: string, cwd: string): AgentError {
  return new AgentError('PATH_OUTSIDE_CWD', `expected a path inside the working directory ${cwd}, received ${JSON.stringify(path)}`);
}
