/**
 * @module fork-intent
 * Which fork child a directory dsh made for `--worktree` belongs to (SPEC §23): written in the data
 * folder (`DATA/worktrees/.forks/<name>.json`) before the directory is made and before the child is
 * forked with that id, so a kill -9 anywhere leaves either both, or a record the next `--worktree`
 * fork or `dsh delete` finds and cleans (the child absent, the process that wrote it gone).
 */
import { randomBytes } from 'node:crypto';
import { lstat, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { removeWorktree } from './remove-worktree.js';
import { worktreePath } from './worktree-record.js';

/** One directory made for a fork child: a git worktree (`git`) or a materialized folder (`dir`). */
export type ForkWorktreeIntent = {
  version: 1;
  name: string;
  childId: string;
  kind: 'git' | 'dir';
  pid: number;
  /** `claude-code` / `codex` / `pi`: the child is that tool's session file, and the intent is dropped once it is written (any left is an orphan). */
  tool?: 'claude-code' | 'codex' | 'pi';
};

function intentsDir(dataDir: string): string {
  return join(dataDir, 'worktrees', '.forks');
}

function intentPath(dataDir: string, name: string): string {
  return join(intentsDir(dataDir), `${encodeURIComponent(name)}.json`);
}

/** Records the intent atomically (a whole file or none). */
export async function writeForkIntent(dataDir: string, intent: ForkWorktreeIntent): Promise<void> {
  await mkdir(intentsDir(dataDir), { recursive: true });
  const path = intentPath(dataDir, intent.name);
  const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temp, `${JSON.stringify(intent)}\n`, { flag: 'wx' });
  await rename(temp, path);
}

/** Drops the intent of `name` once its child exists elsewhere than in the store (a Claude Code file): nothing left to clean. */
export async function forgetForkIntent(dataDir: string, name: string): Promise<void> {
  await rm(intentPath(dataDir, name), { force: true });
}

/** Every readable intent of this data folder. */
export async function listForkIntents(dataDir: string): Promise<ForkWorktreeIntent[]> {
  const files = await readdir(intentsDir(dataDir)).catch(() => [] as string[]);
  const intents: ForkWorktreeIntent[] = [];
  for (const file of files) {
    if (!file.endsWith('.json')) continue;
    const value = await readFile(join(intentsDir(dataDir), file), 'utf8')
      .then((text) => JSON.parse(text) as unknown)
      .catch(() => undefined);
    if (typeof value !== 'object' || value === null) continue;
    const fields = value as Record<string, unknown>;
    if (fields.version !== 1 || typeof fields.name !== 'string' || typeof fields.childId !== 'string' || typeof fields.pid !== 'number')
      continue;
    if (fields.kind !== 'git' && fields.kind !== 'dir') continue;
    if (file !== `${encodeURIComponent(fields.name)}.json`) continue;
    const intent = value as ForkWorktreeIntent;
    intents.push(intent);
  }
  return intents;
}

/** Removes the directory an intent names (the recorded git worktree and its branch, or dsh's folder) and the intent. */
export async function undoForkIntent(dataDir: string, intent: ForkWorktreeIntent): Promise<void> {
  if (intent.kind === 'git') {
    await removeWorktree(dataDir, intent.name, true).catch(async (error: unknown) => {
      // No record: the kill came before `git worktree add` was recorded; only dsh's own folder may exist.
      if ((error as { code?: string }).code !== 'WORKTREE_NOT_FOUND') throw error;
      await removeOwnFolder(dataDir, intent.name);
    });
  } else {
    await removeOwnFolder(dataDir, intent.name);
  }
  await rm(intentPath(dataDir, intent.name), { force: true });
}

async function removeOwnFolder(dataDir: string, name: string): Promise<void> {
  const path = worktreePath(dataDir, name);
  const info = await lstat(path).catch(() => undefined);
  if (info?.isSymbolicLink() === true) await rm(path, { force: true });
  else if (info !== undefined) await rm(path, { recursive: true, force: true });
}

function alive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Cleans every intent whose child does not exist and whose process is gone (a kill -9 mid-fork); returns
 * their names. With `tool`, only that tool's intents are looked at.
 */
export async function cleanOrphanForkIntents(
  dataDir: string,
  sessionExists: (id: string) => boolean,
  tool?: 'claude-code' | 'codex' | 'pi',
): Promise<string[]> {
  const cleaned: string[] = [];
  for (const intent of await listForkIntents(dataDir)) {
    if (tool !== undefined && intent.tool !== tool) continue;
    if (sessionExists(intent.childId) || alive(intent.pid)) continue;
    await undoForkIntent(dataDir, intent);
    cleaned.push(intent.name);
  }
  return cleaned;
}

/** Removes the directories dsh made for session `childId` (after `dsh delete`); returns their paths. */
export async function removeForkWorktreesOf(dataDir: string, childId: string): Promise<string[]> {
  const removed: string[] = [];
  for (const intent of await listForkIntents(dataDir)) {
    if (intent.childId !== childId) continue;
    await undoForkIntent(dataDir, intent);
    removed.push(worktreePath(dataDir, intent.name));
  }
  return removed;
}
