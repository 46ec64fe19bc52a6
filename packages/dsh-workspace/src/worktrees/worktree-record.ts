/**
 * @module worktree-record
 * What dsh knows of each worktree it made (SPEC §27), kept in the data folder outside every worktree
 * (`DATA/worktrees/.records/<name>.json`; no peer name starts with `.`): the repository, the admin
 * folder, the branch and the path. `files_changed`, `--compare` and `--remove` run git from this
 * record, never from a `.git` file a session's tools could have written. Written before
 * `git worktree add`, so a half-made worktree is found again (`adminDir` null until it is whole).
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { isAbsolute, join, sep } from 'node:path';
import { WorkspaceError } from '../workspace-error.js';

/** One worktree dsh made, as recorded when it made it. */
export type WorktreeRecord = {
  version: 1;
  /** The peer (or fork child) name; the branch is `dsh/<name>`. */
  name: string;
  branch: string;
  /** The worktree's folder, `DATA/worktrees/<name>`. */
  path: string;
  /** Where in the worktree the session runs (the baseline's place in its checkout). */
  subdir: string;
  /** The repository's common folder: objects, refs and the worktrees list. */
  commonDir: string;
  /** The worktree's admin folder in `commonDir` (`--git-dir` for its files), null while it is being made. */
  adminDir: string | null;
  /** The commit the branch was created at. */
  head: string;
};

/** Where peer `name`'s worktree lives: under the data directory, outside every checkout. */
export function worktreePath(dataDir: string, name: string): string {
  return join(dataDir, 'worktrees', name);
}

function recordsDir(dataDir: string): string {
  return join(dataDir, 'worktrees', '.records');
}

function recordPath(dataDir: string, name: string): string {
  return join(recordsDir(dataDir), `${encodeURIComponent(name)}.json`);
}

/** The record read back, or undefined when it is not one dsh wrote for `name` in this data folder. */
function parseRecord(dataDir: string, name: string, text: string): WorktreeRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  const strings = ['name', 'branch', 'path', 'subdir', 'commonDir', 'head'].every((key) => typeof record[key] === 'string');
  if (!strings || record.version !== 1 || !(record.adminDir === null || typeof record.adminDir === 'string')) return undefined;
  // The worktree's place is derived again, never taken from the file (the data folder may be reached
  // by another spelling than when it was written): a record names only what dsh would.
  const parsed = { ...(value as WorktreeRecord), path: worktreePath(dataDir, name) };
  if (parsed.name !== name || parsed.branch !== `dsh/${name}`) return undefined;
  if (!isAbsolute(parsed.commonDir) || (parsed.adminDir !== null && !parsed.adminDir.startsWith(join(parsed.commonDir, 'worktrees') + sep)))
    return undefined;
  if (isAbsolute(parsed.subdir) || parsed.subdir.split(sep).includes('..')) return undefined;
  return parsed;
}

/** Peer `name`'s record, or undefined when there is none; `WORKTREE_NOT_FOUND` when the file is not one dsh wrote. */
export async function readWorktreeRecord(dataDir: string, name: string): Promise<WorktreeRecord | undefined> {
  let text: string;
  try {
    text = await readFile(recordPath(dataDir, name), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const record = parseRecord(dataDir, name, text);
  if (record === undefined)
    throw new WorkspaceError(
      'WORKTREE_NOT_FOUND',
      `The record of peer '${name}' (${recordPath(dataDir, name)}) is not one dsh wrote: expected its JSON.`,
      {
        hint: 'remove the worktree with git worktree remove, then delete that file',
      },
    );
  return record;
}

/** Writes (or replaces) a record atomically: a whole file or the previous one, never half of one. */
export async function writeWorktreeRecord(dataDir: string, record: WorktreeRecord): Promise<void> {
  await mkdir(recordsDir(dataDir), { recursive: true });
  const path = recordPath(dataDir, record.name);
  const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temp, `${JSON.stringify(record, null, 2)}\n`, { flag: 'wx' });
  await rename(temp, path);
}

/**
 * Deletes peer `name`'s record (nothing when there is none) and the temporary files of writes of it a
 * kill -9 cut short (`<name>.json.<hex>.tmp`: never a record, never renamed into place).
 */
export async function deleteWorktreeRecord(dataDir: string, name: string): Promise<void> {
  const path = recordPath(dataDir, name);
  const prefix = `${encodeURIComponent(name)}.json.`;
  const files = await readdir(recordsDir(dataDir)).catch(() => [] as string[]);
  const temps = files.filter((file) => file.startsWith(prefix) && /^[0-9a-f]{12}\.tmp$/.test(file.slice(prefix.length)));
  for (const temp of temps) await rm(join(recordsDir(dataDir), temp), { force: true });
  await rm(path, { force: true });
}

/** Every readable record of this data folder (files that are not records are skipped). */
export async function listWorktreeRecords(dataDir: string): Promise<WorktreeRecord[]> {
  let files: string[];
  try {
    files = await readdir(recordsDir(dataDir));
  } catch {
    return [];
  }
  const records: WorktreeRecord[] = [];
  for (const file of files) {
    if (!file.endsWith('.json')) continue;
    let name: string;
    try {
      name = decodeURIComponent(file.slice(0, -'.json'.length));
    } catch {
      continue;
    }
    const text = await readFile(join(recordsDir(dataDir), file), 'utf8').catch(() => undefined);
    const record = text === undefined ? undefined : parseRecord(dataDir, name, text);
    if (record !== undefined) records.push(record);
  }
  return records;
}

/** The record of the worktree holding `cwd` (a session's cwd under `DATA/worktrees/`), or undefined. */
export async function worktreeRecordFor(dataDir: string, cwd: string | undefined): Promise<WorktreeRecord | undefined> {
  if (cwd === undefined || !cwd.startsWith(join(dataDir, 'worktrees') + sep)) return undefined;
  const holding = (await listWorktreeRecords(dataDir)).filter((record) => cwd === record.path || cwd.startsWith(record.path + sep));
  // `x` and `x/y` never both exist, but the deepest is the right one if they ever did.
  return holding.sort((a, b) => b.path.length - a.path.length)[0];
}
