/**
 * Lays out a demo data directory the way the CLI reads one: the directory itself is the JSONL store
 * (`DIR/<id>.jsonl`, what `dsh --data DIR` opens) and `DIR/workspace/` is the tools' cwd. A new
 * (missing or empty) directory is seeded with the shipped recordings and the small project they talk
 * about; an existing one is never rewritten, so a person's sessions survive restarts. A directory in
 * the demo's old layout (sessions in `DIR/sessions/`) is still read where it is, and says so.
 */
import { cp, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Where the store and the workspace live, whether this call seeded them, and `oldLayout` when the
 * sessions were found in `DIR/sessions/` (the store is then that folder).
 */
export type DemoDataDir = { sessionsDir: string; workspaceDir: string; seeded: string[]; oldLayout: boolean };

/** A data directory that holds sessions in both layouts, so neither can be chosen silently. */
export class DemoDataDirError extends Error {
  override readonly name = 'DemoDataDirError';
}

async function entries(path: string): Promise<string[] | undefined> {
  try {
    return await readdir(path);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}

async function isDirectory(path: string): Promise<boolean> {
  return stat(path).then(
    (info) => info.isDirectory(),
    () => false,
  );
}

const isLog = (name: string) => name.endsWith('.jsonl') && !name.startsWith('.');

/** Copies the recordings and the workspace into a sibling, then renames it to `dataDir` (which is missing or empty). */
async function seedNew(dataDir: string, recordingsDir: string): Promise<string[]> {
  await mkdir(dirname(dataDir), { recursive: true });
  // A sibling first, so an interrupted seed leaves no half-filled store behind.
  const staging = join(dirname(dataDir), `.${basename(dataDir)}.seeding-${String(process.pid)}`);
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging);
  const seeded: string[] = [];
  try {
    for (const name of (await readdir(join(recordingsDir, 'sessions'))).sort()) {
      if (!isLog(name)) continue;
      await cp(join(recordingsDir, 'sessions', name), join(staging, name));
      seeded.push(name.slice(0, -'.jsonl'.length));
    }
    await cp(join(recordingsDir, 'workspace'), join(staging, 'workspace'), { recursive: true });
    // rename(2) replaces an empty directory, so an empty `--data` folder made beforehand is fine.
    await rename(staging, dataDir);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
  return seeded;
}

/** Seeds `dataDir` from `recordingsDir` (`sessions/*.jsonl`, `workspace/`) when it is missing or empty. */
export async function seedDataDir(dataDir: string, recordingsDir: string): Promise<DemoDataDir> {
  const names = await entries(dataDir);
  if (names === undefined || names.length === 0) {
    const seeded = await seedNew(dataDir, recordingsDir);
    return { sessionsDir: dataDir, workspaceDir: join(dataDir, 'workspace'), seeded, oldLayout: false };
  }
  const workspaceDir = join(dataDir, 'workspace');
  const oldSessions = join(dataDir, 'sessions');
  const oldLogs = (await isDirectory(oldSessions)) ? ((await entries(oldSessions)) ?? []).filter(isLog) : [];
  const oldLayout = (await isDirectory(oldSessions)) && (oldLogs.length > 0 || !names.some(isLog));
  if (oldLayout && names.some(isLog)) {
    throw new DemoDataDirError(
      `${dataDir} holds sessions in two layouts: ${String(names.filter(isLog).length)} in the folder itself (the CLI's layout) and ${String(oldLogs.length)} in ${oldSessions} (the demo's old one). Expected one; move the old ones up with: mv ${oldSessions}/*.jsonl ${dataDir}/`,
    );
  }
  if (!(await isDirectory(workspaceDir))) await cp(join(recordingsDir, 'workspace'), workspaceDir, { recursive: true });
  return { sessionsDir: oldLayout ? oldSessions : dataDir, workspaceDir, seeded: [], oldLayout };
}
