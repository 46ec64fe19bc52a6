/** A temporary HOME with a working directory inside it, removed on dispose. */
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** `home` (the tool's HOME) and `cwd` (a project folder in it; real path, symlinks resolved). */
export type InteropHome = AsyncDisposable & { home: string; cwd: string };

/** Creates the folders under the system temp dir (the project folder named `project` unless told). */
export async function makeInteropHome(prefix = 'dsh-interop-', project = 'project'): Promise<InteropHome> {
  const home = await realpath(await mkdtemp(join(tmpdir(), prefix)));
  const cwd = join(home, project);
  await mkdir(cwd);
  return { home, cwd, [Symbol.asyncDispose]: () => rm(home, { recursive: true, force: true }) };
}
