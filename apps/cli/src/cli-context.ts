/**
 * @module cli-context
 * What every command is given instead of touching `process`: the output streams, stdin, the
 * environment and the working directory; and the data directory those resolve to.
 */
import { homedir } from 'node:os';
import { resolve } from 'node:path';

/** What a command may touch of its process: output streams, stdin, environment and working directory. */
export type CliContext = {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream;
  env: NodeJS.ProcessEnv;
  cwd: string;
};

/** The data directory: `--data DIR`, else `$DSH_HOME`, else `~/.dsh` (absolute). */
export function resolveDataDir(context: CliContext, flag: string | boolean | string[] | undefined): string {
  if (typeof flag === 'string' && flag !== '') return resolve(context.cwd, flag);
  const home = context.env.DSH_HOME;
  if (home !== undefined && home !== '') return resolve(context.cwd, home);
  return resolve(homedir(), '.dsh');
}
