/** Runs the workspace's real `dsh` bin (from source) as a child process, stdin closed. */
import { fileURLToPath } from 'node:url';
import { runBin, type ToolRun } from './run-tool.js';

const DSH_BIN = fileURLToPath(new URL('../../../apps/cli/bin/dsh.js', import.meta.url));

/** `dsh ARGS` in `cwd`, with `env` added to this process's environment (minus `DSH_HOME`). */
export function runDsh(args: readonly string[], options: { cwd: string; env?: Record<string, string> }): Promise<ToolRun> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env))
    if (value !== undefined && key !== 'DSH_HOME' && key !== 'NODE_OPTIONS') env[key] = value;
  return runBin(process.execPath, [DSH_BIN, ...args], { cwd: options.cwd, env: { ...env, ...options.env } });
}
