import { spawnSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTempDir } from './make-temp-dir.js';

/** A small tmpfs for a full-disk test; `remove()` (or `await using`) unmounts it and deletes its folder. */
export interface SmallDisk extends AsyncDisposable {
  readonly path: string;
  remove(): Promise<void>;
}

/**
 * Mounts a tmpfs of `sizeKiB` in a new temp folder; where mounting is not permitted (not root, a
 * container without the capability) returns the reason, for the caller to print and skip.
 */
export async function mountSmallDisk(sizeKiB: number, prefix = 'dsh-disk-'): Promise<SmallDisk | { reason: string }> {
  const dir = await makeTempDir(prefix);
  const path = join(dir.path, 'disk');
  await mkdir(path);
  const result = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${String(sizeKiB)}k`, 'tmpfs', path], { encoding: 'utf8' });
  if (result.error !== undefined || result.status !== 0) {
    await dir.remove();
    return { reason: `mount -t tmpfs not permitted here: ${(result.error?.message ?? result.stderr).trim()}` };
  }
  let mounted = true;
  const remove = async (): Promise<void> => {
    if (mounted) spawnSync('umount', [path]);
    mounted = false;
    await dir.remove();
  };
  return { path, remove, [Symbol.asyncDispose]: remove };
}
