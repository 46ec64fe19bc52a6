import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A temporary directory removed by `await using` or `remove()`. */
export interface TempDir extends AsyncDisposable {
  readonly path: string;
  remove(): Promise<void>;
}

/** Creates a fresh directory under the OS temp dir; disposing it deletes it recursively. */
export async function makeTempDir(prefix = 'dsh-test-'): Promise<TempDir> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  const remove = () => rm(path, { recursive: true, force: true });
  return { path, remove, [Symbol.asyncDispose]: remove };
}
