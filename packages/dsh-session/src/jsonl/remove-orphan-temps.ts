/**
 * @module `removeOrphanTemps`: removes the temp files of session-log writers that died (mid-create,
 * mid-rewrite, mid-`migrate --write`), at store open and before a segment collection counts which
 * files name segments — a dead writer's temp file will never be renamed, so what it names is not kept.
 */
import { readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { fileLeaseHolder } from './file-lease.js';
import { leasesDir } from './jsonl-paths.js';
import { SESSION_TEMP_NAME } from './session-temp-name.js';

/**
 * Removes every temp file in `dir` whose writer is gone, and returns their names: a writer of a
 * session's log holds its lease while its temp file exists, so a temp file of a session whose lease no
 * live process holds is a leftover — never a live writer's.
 */
export async function removeOrphanTemps(dir: string): Promise<string[]> {
  const leases = leasesDir(dir);
  const removed: string[] = [];
  for (const name of await readdir(dir)) {
    const match = SESSION_TEMP_NAME.exec(name);
    if (match === null) continue;
    if ((await fileLeaseHolder(leases, match[1] as string)) !== undefined) continue;
    await unlink(join(dir, name)).then(
      () => removed.push(name),
      () => undefined,
    );
  }
  return removed;
}
