/**
 * Lays out a demo data directory: `sessions/` (the JSONL store) and `workspace/` (the tools' cwd).
 * A new directory is seeded with the shipped recordings and the small project they talk about;
 * an existing one is never touched, so a person's sessions survive restarts.
 */
import { cp, mkdir, readdir, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** Where the store and the workspace live, and whether this call seeded them. */
export type DemoDataDir = { sessionsDir: string; workspaceDir: string; seeded: string[] };

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** Seeds `dataDir` from `recordingsDir` (`sessions/*.jsonl`, `workspace/`) unless it is already laid out. */
export async function seedDataDir(dataDir: string, recordingsDir: string): Promise<DemoDataDir> {
  const sessionsDir = join(dataDir, 'sessions');
  const workspaceDir = join(dataDir, 'workspace');
  const seeded: string[] = [];
  if (!(await exists(sessionsDir))) {
    // Copy into a sibling first, so an interrupted seed leaves no half-filled store behind.
    const staging = join(dataDir, `.sessions-seeding-${process.pid}`);
    await mkdir(staging, { recursive: true });
    for (const name of (await readdir(join(recordingsDir, 'sessions'))).sort()) {
      if (!name.endsWith('.jsonl')) continue;
      await cp(join(recordingsDir, 'sessions', name), join(staging, name));
      seeded.push(name.slice(0, -'.jsonl'.length));
    }
    await rename(staging, sessionsDir);
  }
  if (!(await exists(workspaceDir))) {
    await cp(join(recordingsDir, 'workspace'), workspaceDir, { recursive: true });
  }
  return { sessionsDir, workspaceDir, seeded };
}
