/**
 * @module capture-tree
 * The files of a workspace as a tree in the store, at O(changed files): the workspace's private index
 * says what changed since its last capture (by stat), only those paths are looked at and hashed.
 */
import { accessSync, constants, lstatSync, realpathSync, renameSync, rmSync, type Stats } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { findCheckout } from '../find-checkout.js';
import { writeIndexTree } from './write-index-tree.js';
import { gitFailed, type GitResult, type RunGitOptions } from '../run-git.js';
import {
  defaultExcludesPath,
  indexPath,
  realWorkspace,
  tempPath,
  workspaceKey,
  type StoreContext,
  gitOnFiles,
  privateIndex,
} from './store-context.js';

/** Why a path is not in a checkpoint's tree. */
export type SkipReason = 'too-large' | 'budget' | 'unreadable' | 'nested-repository' | 'special-file';

/** A path a checkpoint did not capture, and why (never dropped silently). */
export type SkippedPath = { path: string; reason: SkipReason };

/** The limits of one capture. */
export type CaptureLimits = {
  budgetMs: number;
  maxFileBytes: number;
  maxNewBytes: number;
  signal?: AbortSignal | undefined;
};

/** One capture: the tree id, what was skipped, how long it took, and the workspace's real path. */
export type Capture = { tree: string; skipped: SkippedPath[]; ms: number; cwd: string };

/** Paths handed to one `update-index` process: a killed batch skips only itself and what follows. */
const BATCH_PATHS = 4000;
const BATCH_BYTES = 32 * 1024 * 1024;
/** Time left to `write-tree` after the budget ran out during the listing or a batch (else: the rest of the budget). */
const WRITE_TREE_MS = 1000;

/**
 * Captures `cwd` into the store, updating its private index. Never writes inside `cwd`, never reads
 * the user's repository but the discovery of whether `cwd` is a checkout (`findCheckout`, once).
 */
export async function captureTree(context: StoreContext, cwd: string, limits: CaptureLimits): Promise<Capture> {
  const started = performance.now();
  const real = await realWorkspace(cwd);
  await context.ready();
  const key = workspaceKey(real);
  const index = indexPath(context, key);
  const working = tempPath(context, `index-${key}`);
  const deadline = AbortSignal.timeout(Math.max(0, limits.budgetMs));
  const bounded = limits.signal === undefined ? deadline : AbortSignal.any([deadline, limits.signal]);
  try {
    await privateIndex(index, working).catch((error: unknown) => {
      // No index yet: the workspace's first checkpoint.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    });
    const target: RunGitOptions = {
      gitDir: context.dir,
      workTree: real,
      indexFile: working,
      config: [
        ['core.excludesFile', await excludesFor(context, key, real)],
        ['core.symlinks', 'true'],
        ['core.ignoreCase', 'false'],
      ],
    };
    const skipped: SkippedPath[] = [];
    const listed = await gitOnFiles(['ls-files', '-z', '-t', '-m', '-d', '-o', '--exclude-standard', ...outsideTheStore(context, real)], {
      ...target,
      signal: bounded,
    });
    if (!listed.ok) {
      if (!bounded.aborted) throw gitFailed(`listing the changes in ${real}`, listed);
      limits.signal?.throwIfAborted();
      skipped.push({ path: '.', reason: 'budget' });
    } else {
      const plan = planUpdates(real, parseListing(listed.stdout), limits, skipped);
      await addInBatches(target, plan.add, bounded, skipped);
      if (plan.drop.length > 0)
        await mustRun(`dropping skipped paths of ${real}`, ['update-index', '-z', '--force-remove', '--stdin'], {
          ...target,
          input: nulList(plan.drop),
        });
    }
    const left = Math.min(2 ** 31 - 1, Math.ceil(limits.budgetMs - (performance.now() - started)));
    const tree = inProcessTree(context.dir, working) ?? (await gitWriteTree(target, real, limits, Math.max(WRITE_TREE_MS, left)));
    renameSync(working, index);
    return { tree, skipped, ms: Math.round(performance.now() - started), cwd: real };
  } finally {
    // Synchronous, as the other small file operations of a checkpoint: no thread-pool round trip each.
    rmSync(working, { force: true });
    rmSync(`${working}.lock`, { force: true });
  }
}

/** `writeIndexTree`, or undefined when it cannot (an unreadable index, a full disk): then git writes the tree. */
function inProcessTree(gitDir: string, indexFile: string): string | undefined {
  try {
    return writeIndexTree(gitDir, indexFile, dirname(indexFile));
  } catch {
    return undefined;
  }
}

/** `git write-tree`: every invalid folder's tree written, and the cache-tree written back into the index. */
async function gitWriteTree(target: RunGitOptions, real: string, limits: CaptureLimits, timeoutMs: number): Promise<string> {
  const signal =
    limits.signal === undefined ? AbortSignal.timeout(timeoutMs) : AbortSignal.any([AbortSignal.timeout(timeoutMs), limits.signal]);
  const written = await gitOnFiles(['write-tree'], { ...target, signal });
  if (!written.ok) {
    limits.signal?.throwIfAborted();
    throw gitFailed(`writing the tree of ${real}`, written);
  }
  return written.stdout.toString('utf8').trim();
}

/** A path `ls-files -t` listed: tracked (changed or removed) or not. */
type Listed = { path: string; tracked: boolean };

function parseListing(stdout: Buffer): Listed[] {
  const seen = new Map<string, boolean>();
  for (const entry of stdout.toString('utf8').split('\0')) {
    if (entry.length < 3) continue;
    const path = entry.slice(2);
    seen.set(path, (seen.get(path) ?? false) || entry[0] !== '?');
  }
  return [...seen].map(([path, tracked]) => ({ path, tracked }));
}

type Plan = { add: { path: string; bytes: number }[]; drop: string[] };

/** Sorts the listed paths into those to add or remove, and those skipped (tracked ones dropped from the tree). */
function planUpdates(real: string, listed: Listed[], limits: CaptureLimits, skipped: SkippedPath[]): Plan {
  // Synchronous: one lstat per changed path, a few microseconds each, no thread-pool round trip.
  const plan: Plan = { add: [], drop: [] };
  let newBytes = 0;
  const skip = (entry: Listed, reason: SkipReason): void => {
    skipped.push({ path: entry.path, reason });
    if (entry.tracked) plan.drop.push(entry.path);
  };
  for (const entry of listed) {
    if (entry.path.endsWith('/')) {
      // git lists a nested repository as `dir/` and would store it as a gitlink (a commit it does not have).
      skipped.push({ path: entry.path.slice(0, -1), reason: 'nested-repository' });
      continue;
    }
    const absolute = join(real, entry.path);
    const info = lstatOrUndefined(absolute);
    if (info === undefined || info.isDirectory() || info.isSymbolicLink()) {
      // Gone (update-index --remove drops it), a tracked file replaced by a folder (dropped; its files
      // are listed on their own), or a link stored as a link.
      plan.add.push({ path: entry.path, bytes: info?.isSymbolicLink() === true ? info.size : 0 });
      continue;
    }
    if (!info.isFile()) {
      skip(entry, 'special-file');
      continue;
    }
    if (info.size > limits.maxFileBytes) {
      skip(entry, 'too-large');
      continue;
    }
    if (newBytes + info.size > limits.maxNewBytes) {
      skip(entry, 'budget');
      continue;
    }
    if (!isReadable(absolute)) {
      skip(entry, 'unreadable');
      continue;
    }
    newBytes += info.size;
    plan.add.push({ path: entry.path, bytes: info.size });
  }
  return plan;
}

/** `update-index --add --remove --replace` in batches; what the deadline stops is skipped as `budget`. */
async function addInBatches(target: RunGitOptions, add: Plan['add'], signal: AbortSignal, skipped: SkippedPath[]): Promise<void> {
  let start = 0;
  while (start < add.length) {
    let end = start;
    let bytes = 0;
    while (end < add.length && end - start < BATCH_PATHS && (end === start || bytes + (add[end]?.bytes ?? 0) <= BATCH_BYTES)) {
      bytes += add[end]?.bytes ?? 0;
      end += 1;
    }
    const batch = add.slice(start, end).map((entry) => entry.path);
    if (isAborted(signal)) {
      for (const path of add.slice(start).map((entry) => entry.path)) skipped.push({ path, reason: 'budget' });
      return;
    }
    const result = await updateIndex(target, batch, signal);
    if (!result.ok) {
      if (isAborted(signal)) continue;
      // One path git could not read (it changed under us, or its permissions did): add one by one.
      for (const path of batch) {
        const one = await updateIndex(target, [path], signal);
        if (!one.ok) skipped.push({ path, reason: isAborted(signal) ? 'budget' : 'unreadable' });
      }
    }
    start = end;
  }
}

/** Read through a call: the signal changes while git runs. */
function isAborted(signal: AbortSignal): boolean {
  return signal.aborted;
}

function updateIndex(target: RunGitOptions, paths: string[], signal: AbortSignal): Promise<GitResult> {
  return gitOnFiles(['update-index', '-z', '--add', '--remove', '--replace', '--stdin'], { ...target, input: nulList(paths), signal });
}

async function mustRun(what: string, args: string[], options: RunGitOptions): Promise<void> {
  const result = await gitOnFiles(args, options);
  if (!result.ok) throw gitFailed(what, result);
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    // Gone, or a parent that is no longer a folder: either way update-index --remove drops the path.
    return undefined;
  }
}

function isReadable(path: string): boolean {
  try {
    accessSync(path, constants.R_OK);
    return true;
  } catch {
    return false;
  }
}

function nulList(paths: readonly string[]): string {
  return paths.map((path) => `${path}\0`).join('');
}

/** A pathspec leaving the store out when it lies inside the workspace (a cwd of `~` with the data folder in it). */
function outsideTheStore(context: StoreContext, real: string): string[] {
  const inside = relative(real, realpathSync(context.dir));
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) return [];
  return ['--', ':(top)', `:(top,exclude,literal)${inside.split(sep).join('/')}`];
}

/** The ignores of a workspace: a checkout's own `info/exclude`, or the non-git defaults. */
function excludesFor(context: StoreContext, key: string, real: string): Promise<string> {
  let found = context.excludes.get(key);
  if (found === undefined) {
    found = findCheckout(real).then(async (checkout) => {
      if (checkout === undefined) return defaultExcludesPath(context.dir);
      const exclude = join(checkout.commonDir, 'info', 'exclude');
      return (await lstat(exclude).then(
        (info) => info.isFile(),
        () => false,
      ))
        ? exclude
        : '/dev/null';
    });
    context.excludes.set(key, found);
    found.catch(() => context.excludes.delete(key));
  }
  return found;
}
