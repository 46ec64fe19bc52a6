/**
 * @module How the demo tools reach a path inside the session's cwd without a check-then-use window.
 * The cwd is opened once; every directory below it is opened *from its opened parent*
 * (`/proc/self/fd/<parent>/<name>`, Linux's openat through a path) with `O_NOFOLLOW`, so a directory
 * swapped for a symbolic link between two steps is never entered by name again. A symbolic link the
 * walk meets on purpose is followed once and the handle it gave is checked where it really is
 * (`readlink /proc/self/fd/<fd>`) before anything is done with it. Files are opened the same way,
 * checked on the opened handle (kind, link count, place), and read or written through that handle.
 * Where `/proc/self/fd` does not exist (not Linux), each step is a checked real path instead: the
 * same refusals, without the guarantee against a concurrent swap.
 */
import { constants, existsSync } from 'node:fs';
import { mkdir, open, readlink, realpath, type FileHandle } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { AgentError } from './agent-error.js';
import { checkPathLimits } from './check-path-limits.js';
import { refuseGitPath } from './refuse-git-path.js';

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_DIRECTORY, O_NOFOLLOW, O_NONBLOCK } = constants;
const BY_DESCRIPTOR = existsSync('/proc/self/fd');

/** An opened directory inside the cwd: `path` names it for the next step (its descriptor's path on Linux). */
export type CwdDirectory = { readonly path: string; readonly handle: FileHandle | undefined; close(): Promise<void> };

/** A path argument resolved lexically inside the cwd: the cwd's real path, the names below it, how to show it. */
export type CwdTarget = { root: string; names: string[]; shown: string; argument: string; cwd: string };

function errno(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

function isInside(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/** `PATH_OUTSIDE_CWD` for a tool's path argument. */
export function outsideCwd(target: Pick<CwdTarget, 'argument' | 'cwd'>): AgentError {
  return new AgentError(
    'PATH_OUTSIDE_CWD',
    `expected a path inside the working directory ${target.cwd}, received ${JSON.stringify(target.argument)}`,
  );
}

/**
 * Throws unless `where` (a real path, as a handle's descriptor names it) lies inside the cwd
 * (`PATH_OUTSIDE_CWD`) and outside every `.git` folder below it (`PATH_REFUSED`).
 */
function checkPlace(target: CwdTarget, where: string): void {
  if (!isInside(target.root, where)) throw outsideCwd(target);
  refuseGitPath(target.argument, relative(target.root, where).split(sep), 'link');
}

/**
 * Resolves a tool's `path` argument lexically inside the real path of `cwd`; refuses
 * (`PATH_OUTSIDE_CWD`) one that leaves it, `PATH_TOO_LONG` one over the path limits, and
 * `PATH_REFUSED` one with a `.git` part (before anything is opened or created), and `FILE_NOT_FOUND`
 * when the cwd does not exist.
 */
export async function targetInCwd(cwd: string, argument: string): Promise<CwdTarget> {
  if (argument.includes('\0')) throw outsideCwd({ argument, cwd });
  let root: string;
  try {
    root = await realpath(cwd);
  } catch (cause) {
    throw new AgentError('FILE_NOT_FOUND', `the working directory ${cwd} does not exist`, { cause });
  }
  const absolute = resolve(root, argument);
  if (!isInside(root, absolute)) throw outsideCwd({ argument, cwd });
  const names = relative(root, absolute)
    .split(sep)
    .filter((name) => name !== '');
  checkPathLimits(argument, absolute, names);
  // The argument's own parts too: `.git/../x` names git's folder even though it resolves past it.
  refuseGitPath(argument, [...names, ...argument.split(/[\\/]/u)]);
  return { root, names, shown: names.length === 0 ? '.' : names.join('/'), argument, cwd };
}

/** Throws unless an opened handle (or checked path) still lies inside the cwd and outside `.git`, judged by where it really is now. */
async function checkStillInside(target: CwdTarget, directory: { handle: FileHandle | undefined; path: string }): Promise<void> {
  let where: string;
  try {
    where =
      directory.handle !== undefined && BY_DESCRIPTOR
        ? await readlink(`/proc/self/fd/${String(directory.handle.fd)}`)
        : await realpath(directory.path);
  } catch {
    throw outsideCwd(target);
  }
  checkPlace(target, where);
}

async function directoryOf(target: CwdTarget, handle: FileHandle | undefined, path: string): Promise<CwdDirectory> {
  const directory: CwdDirectory = {
    path: handle !== undefined && BY_DESCRIPTOR ? `/proc/self/fd/${String(handle.fd)}` : path,
    handle,
    close: async () => {
      await handle?.close().catch(() => undefined);
    },
  };
  try {
    await checkStillInside(target, directory);
  } catch (error) {
    await directory.close();
    throw error;
  }
  return directory;
}

/** Opens `name` in `parent` as a directory; a symbolic link is followed once and checked. */
async function openChild(target: CwdTarget, parent: CwdDirectory, name: string): Promise<CwdDirectory> {
  const path = `${parent.path}/${name}`;
  if (!BY_DESCRIPTOR) {
    const real = await realpath(path);
    return directoryOf(target, await open(real, O_RDONLY | O_DIRECTORY), real);
  }
  try {
    // O_NOFOLLOW: a symbolic link put here a moment ago is refused, not entered.
    const handle = await open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
    return { path: `/proc/self/fd/${String(handle.fd)}`, handle, close: () => handle.close().catch(() => undefined) };
  } catch (error) {
    if (errno(error) !== 'ENOTDIR') throw error;
  }
  // A file, or a symbolic link: follow it once and judge the handle by where it really leads.
  try {
    return await directoryOf(target, await open(path, O_RDONLY | O_DIRECTORY), path);
  } catch (error) {
    // A link to nothing: writing through it would land wherever it points.
    if (errno(error) === 'ENOENT') throw outsideCwd(target);
    throw error;
  }
}

function wrongKind(target: CwdTarget, index: number, cause: unknown): AgentError {
  return new AgentError(
    'WRONG_FILE_KIND',
    index === target.names.length - 1
      ? `expected ${target.shown} to be a directory, received a file`
      : `expected every parent of ${target.shown} to be a directory, received a file in the path`,
    { cause },
  );
}

/**
 * Opens the directory of `target.names[0..count)` by walking from the cwd, creating missing
 * directories when `create` is set. Returns the directory and whether any part of it was created.
 */
export async function walkToDirectory(
  target: CwdTarget,
  count: number,
  create: boolean,
): Promise<{ directory: CwdDirectory; created: boolean }> {
  let directory = await directoryOf(target, await open(target.root, O_RDONLY | O_DIRECTORY), target.root);
  let created = false;
  for (let index = 0; index < count; index++) {
    const name = target.names[index] as string;
    let next: CwdDirectory | undefined;
    try {
      for (let attempt = 0; next === undefined; attempt++) {
        try {
          next = await openChild(target, directory, name);
        } catch (error) {
          if (errno(error) !== 'ENOENT' || !create || attempt > 3) throw error;
          // mkdir never follows a symbolic link in its last name: it fails with EEXIST instead.
          await mkdir(`${directory.path}/${name}`).then(
            () => (created = true),
            (cause: unknown) => {
              if (errno(cause) !== 'EEXIST') throw cause;
            },
          );
        }
      }
    } catch (error) {
      await directory.close();
      if (AgentError.is(error)) throw error;
      if (errno(error) === 'ENOENT')
        throw new AgentError('FILE_NOT_FOUND', `${target.shown} does not exist in the working directory`, { cause: error });
      if (errno(error) === 'ENOTDIR' || errno(error) === 'EEXIST') throw wrongKind(target, index, error);
      throw error;
    }
    await directory.close();
    directory = next;
  }
  return { directory, created };
}

/** Refuses what the tools never read or write through: a non-regular file, or one with other hard links (it may be any file on the disk). */
async function checkRegularFile(target: CwdTarget, handle: FileHandle): Promise<void> {
  const info = await handle.stat();
  if (info.isDirectory()) throw new AgentError('WRONG_FILE_KIND', `expected ${target.shown} to be a file, received a directory`);
  if (!info.isFile())
    throw new AgentError(
      'WRONG_FILE_KIND',
      `expected ${target.shown} to be a regular file, received a special file (device, pipe or socket)`,
    );
  if (info.nlink > 1) {
    throw new AgentError(
      'HARD_LINKED_FILE',
      `expected ${target.shown} to have one name, received a file with ${String(info.nlink)} hard links (it may be a file outside the working directory)`,
    );
  }
}

/** Opens an existing file without following a symbolic link, or follows one once (never creating through it) and checks where it led. */
async function openExisting(target: CwdTarget, path: string, access: number): Promise<FileHandle> {
  try {
    return await open(path, access | O_NOFOLLOW);
  } catch (error) {
    if (errno(error) !== 'ELOOP') throw error;
  }
  let followed: FileHandle;
  try {
    followed = await open(path, access);
  } catch (error) {
    throw errno(error) === 'ENOENT' ? outsideCwd(target) : error;
  }
  const where = BY_DESCRIPTOR ? await readlink(`/proc/self/fd/${String(followed.fd)}`) : await realpath(path);
  try {
    checkPlace(target, where);
  } catch (error) {
    await followed.close();
    throw error;
  }
  return followed;
}

/**
 * Opens the file `target` names for reading or writing (creating it for `write` when missing), with
 * the kind, link count and place checked on the opened handle. Returns it and whether it was created.
 */
export async function openFileInCwd(target: CwdTarget, mode: 'read' | 'write'): Promise<{ handle: FileHandle; created: boolean }> {
  const name = target.names.at(-1);
  if (name === undefined) throw new AgentError('WRONG_FILE_KIND', `expected ${target.shown} to be a file, received a directory`);
  const { directory } = await walkToDirectory(target, target.names.length - 1, mode === 'write');
  const path = `${directory.path}/${name}`;
  const access = (mode === 'read' ? O_RDONLY : O_WRONLY) | O_NONBLOCK;
  let handle: FileHandle | undefined;
  let created = false;
  try {
    if (mode === 'write') {
      try {
        // O_EXCL never creates through a symbolic link: an existing name of any kind fails with EEXIST.
        handle = await open(path, access | O_CREAT | O_EXCL | O_NOFOLLOW, 0o666);
        created = true;
      } catch (error) {
        if (errno(error) !== 'EEXIST') throw error;
      }
    }
    handle ??= await openExisting(target, path, access);
    await checkRegularFile(target, handle);
    if (BY_DESCRIPTOR) checkPlace(target, await readlink(`/proc/self/fd/${String(handle.fd)}`));
    return { handle, created };
  } catch (error) {
    await handle?.close().catch(() => undefined);
    if (AgentError.is(error)) throw error;
    const code = errno(error);
    if (code === 'ENOENT')
      throw new AgentError('FILE_NOT_FOUND', `${target.shown} does not exist in the working directory`, { cause: error });
    if (code === 'EISDIR')
      throw new AgentError('WRONG_FILE_KIND', `expected ${target.shown} to be a file, received a directory`, { cause: error });
    if (code === 'ENXIO' || code === 'ENOTDIR')
      throw new AgentError('WRONG_FILE_KIND', `expected ${target.shown} to be a regular file`, { cause: error });
    throw error;
  } finally {
    await directory.close();
  }
}

/**
 * A last check before a result is returned: throws `PATH_OUTSIDE_CWD` unless an opened directory still
 * lies inside the cwd, `PATH_REFUSED` when it now lies in a `.git` folder.
 */
export function checkDirectoryStillInside(target: CwdTarget, directory: CwdDirectory): Promise<void> {
  return checkStillInside(target, directory);
}
