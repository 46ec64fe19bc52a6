/**
 * @module store-context
 * What every operation of a workspace store takes: the store's folder, its one-time creation, and the
 * per-process memory of which workspaces are git checkouts.
 */
import { createHash } from 'node:crypto';
import { linkSync, realpathSync, statSync } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { gitFailed, runGit, safeGitArgs, safeGitEnv, spawnGit, type GitResult, type RunGitOptions } from '../run-git.js';
import { WorkspaceError } from '../workspace-error.js';

/** The store's folder and what an operation needs beside it. */
export type StoreContext = {
  /** The bare repository (`<data>/.workspaces.git`). */
  readonly dir: string;
  /** Loose objects younger than this survive `release` (a checkpoint in flight in another process). */
  readonly pruneGraceMs: number;
  /** Creates the store once per process (idempotent across processes). */
  readonly ready: () => Promise<void>;
  /** Per workspace key: the excludes file its checkpoints use. */
  readonly excludes: Map<string, Promise<string>>;
};

/** Our attributes, highest precedence: stored and restored bytes are the file's bytes, no filter runs. */
const STORE_ATTRIBUTES = '* -text -ident -filter -eol -working-tree-encoding -diff -merge\n';
/** A non-git directory's default ignores (SPEC §23). */
const DEFAULT_EXCLUDES = '.git/\nnode_modules/\n';

/** A context over `dir`; nothing is created until an operation needs it. */
export function createStoreContext(dir: string, pruneGraceMs: number): StoreContext {
  let creating: Promise<void> | undefined;
  const ready = (): Promise<void> => {
    creating ??= createStore(dir).catch((error: unknown) => {
      creating = undefined;
      throw error;
    });
    return creating;
  };
  return { dir, pruneGraceMs, ready, excludes: new Map() };
}

/** How long a store creation waits for another process's `git init` in the folder to finish. */
const OTHER_INIT_WAIT_MS = 10_000;
/** A creation folder older than this was left by a killed process. */
const STALE_CREATION_MS = 10 * 60_000;

function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** A whole store: its HEAD and its config (`git init` writes the config first, HEAD after it). */
async function isStore(dir: string): Promise<boolean> {
  return (await exists(join(dir, 'HEAD'))) && (await exists(join(dir, 'config')));
}

/**
 * Creates the store so that another process never sees it half made: built whole in a private sibling
 * folder (git init, dsh's folders, attributes, ignores) and renamed into place. Two processes racing
 * both build one; the first rename wins and the loser's copy goes. (`git init` in place is not safe to
 * race: the loser fails on `config.lock` before the winner has written HEAD.)
 */
async function createStore(dir: string): Promise<void> {
  if (await isStore(dir)) return completeStore(dir);
  const parent = dirname(dir);
  await mkdir(parent, { recursive: true });
  await removeStaleCreations(parent, basename(dir));
  const building = `${dir}.creating.${String(process.pid)}.${Math.random().toString(36).slice(2, 10)}`;
  try {
    await mkdir(building);
    const init = await runGit(['init', '--bare', '--quiet', '--template='], { gitDir: building });
    if (!init.ok) throw gitFailed('creating the workspace store', init);
    await completeStore(building);
    try {
      // Replaces an empty folder (someone made `dir` but nothing in it); refused for a folder with content.
      await rename(building, dir);
      return;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
    }
  } finally {
    await rm(building, { recursive: true, force: true });
  }
  // Another process got there first: its store is whole (renamed in), or an older dsh is running `git init` in place.
  const until = Date.now() + OTHER_INIT_WAIT_MS;
  while (!(await isStore(dir)) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
  if (!(await isStore(dir))) {
    // A folder with other files and no store after the wait: made a store in place, as before (git keeps what is there).
    const init = await runGit(['init', '--bare', '--quiet', '--template='], { gitDir: dir });
    if (!init.ok && !(await isStore(dir))) throw gitFailed(`creating the workspace store in ${dir} (a folder with other files)`, init);
  }
  await completeStore(dir);
}

/** dsh's folders and files in a store, each written only when missing or different, and atomically (a reader never sees one empty). */
async function completeStore(dir: string): Promise<void> {
  await Promise.all([
    mkdir(join(dir, 'info'), { recursive: true }),
    ...['indexes', 'sessions', 'tmp'].map((sub) => mkdir(join(dir, 'dsh', sub), { recursive: true })),
  ]);
  await Promise.all([
    writeIfDifferent(join(dir, 'info', 'attributes'), STORE_ATTRIBUTES),
    writeIfDifferent(defaultExcludesPath(dir), DEFAULT_EXCLUDES),
  ]);
}

async function writeIfDifferent(path: string, text: string): Promise<void> {
  if ((await readFile(path, 'utf8').catch(() => undefined)) === text) return;
  const temp = `${path}.${String(process.pid)}.${Math.random().toString(36).slice(2, 10)}`;
  await writeFile(temp, text);
  await rename(temp, path);
}

/** Creation folders of `name` in `parent` older than STALE_CREATION_MS (their process was killed). */
async function removeStaleCreations(parent: string, name: string): Promise<void> {
  const prefix = `${name}.creating.`;
  const entries = await readdir(parent).catch(() => [] as string[]);
  for (const entry of entries) {
    if (!entry.startsWith(prefix)) continue;
    const info = await stat(join(parent, entry)).catch(() => undefined);
    if (info !== undefined && Date.now() - info.mtimeMs > STALE_CREATION_MS)
      await rm(join(parent, entry), { recursive: true, force: true });
  }
}

/** The file of ignores for a workspace that is not a git checkout. */
export function defaultExcludesPath(dir: string): string {
  return join(dir, 'dsh', 'default-excludes');
}

/** The key of a workspace: a hash of its real path (folder names never leak into the store's file names). */
export function workspaceKey(realCwd: string): string {
  return createHash('sha256').update(realCwd).digest('hex').slice(0, 40);
}

/** The keep-list of a session: one tree id per line, one line per checkpoint. */
export function sessionListPath(context: StoreContext, sessionId: string): string {
  return join(context.dir, 'dsh', 'sessions', createHash('sha256').update(sessionId).digest('hex').slice(0, 40));
}

/** The private index (stat cache) of a workspace. */
export function indexPath(context: StoreContext, key: string): string {
  return join(context.dir, 'dsh', 'indexes', key);
}

/** A fresh path for a temporary file of this process under the store. */
export function tempPath(context: StoreContext, label: string): string {
  return join(context.dir, 'dsh', 'tmp', `${label}.${process.pid}.${Math.random().toString(36).slice(2, 10)}`);
}

/** The real path of an existing directory, or `NO_WORKSPACE`. */
export function realWorkspace(cwd: string): Promise<string> {
  // Synchronous inside: two system calls, no thread-pool round trips on a checkpoint's path.
  const info = statSync(cwd, { throwIfNoEntry: false });
  if (info === undefined || !info.isDirectory())
    return Promise.reject(
      new WorkspaceError(
        'NO_WORKSPACE',
        `Expected an existing directory as the workspace; ${cwd} ${info === undefined ? 'does not exist' : 'is not a directory'}.`,
      ),
    );
  return Promise.resolve(realpathSync(cwd));
}

/** A tree or object id as git prints it (SHA-1 or SHA-256), or `INVALID_OPTION`. */
export function checkObjectId(what: string, value: unknown): string {
  if (typeof value !== 'string' || !/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(value))
    throw new WorkspaceError('INVALID_OPTION', `Expected ${what} to be a tree id (40 or 64 hex digits); got ${describe(value)}.`);
  return value;
}

/** A value shown in a message: strings quoted and cut at 80 characters. */
export function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object' || typeof value === 'function') return `a${typeof value === 'object' ? 'n object' : ' function'}`;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return typeof value;
}

/** Refuses `WORKSPACE_UNAVAILABLE` unless `tree` is a tree in this store. */
export async function assertTree(context: StoreContext, tree: string): Promise<void> {
  await context.ready();
  const found = await runGit(['cat-file', '-e', `${tree}^{tree}`], { gitDir: context.dir });
  if (!found.ok)
    throw new WorkspaceError(
      'WORKSPACE_UNAVAILABLE',
      `Expected checkpoint tree ${tree} in the workspace store ${context.dir}; it is not there.`,
    );
}

/**
 * `runGit` for commands on a workspace's files, started from `/`: git reads paths (stdin, pathspecs,
 * its output) relative to its current directory, and the store may lie inside the workspace (a cwd
 * of `~` holding the data folder); from `/` every path is relative to the workspace's top.
 */
export function gitOnFiles(args: readonly string[], options: RunGitOptions): Promise<GitResult> {
  const env = safeGitEnv(options.env);
  if (options.indexFile !== undefined) env['GIT_INDEX_FILE'] = options.indexFile;
  return spawnGit([...safeGitArgs(options, options.config), ...args], '/', env, options);
}

/**
 * A private name for a workspace index: a hard link (same inode, so the same mtime: git's racy-clean
 * check compares file mtimes with the index's own, and a copy made later would hide a file changed in
 * the second the index was written). git replaces the file by rename, never writes it in place.
 * Rejects ENOENT when there is no index yet.
 */
export async function privateIndex(index: string, working: string): Promise<void> {
  try {
    linkSync(index, working);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw error;
    // A filesystem without hard links: copy, with the original's times.
    await copyFile(index, working);
    const { atime, mtime } = await stat(index);
    await utimes(working, atime, mtime);
  }
}
