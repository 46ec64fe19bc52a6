/** Spawns a real tool's binary with stdin closed and collects its exit code and output. */
import { spawn } from 'node:child_process';
import { installTool, type ToolName } from './install-tool.js';

/** How a tool run ended. */
export type ToolRun = { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string };

/**
 * Runs the installed `tool` (installing it first if the cache lacks it; `version`: another of its
 * pinned versions) with `args` in `cwd` and exactly `env`; stdin is closed (or carries `input` and
 * is then closed), so no tool waits for a terminal. Resolves when the process exits, whatever its code.
 */
export async function runTool(
  tool: ToolName,
  args: readonly string[],
  options: { cwd: string; env: Record<string, string>; input?: string; version?: string },
): Promise<ToolRun> {
  const { bin } = await installTool(tool, options.version);
  if (bin === undefined) throw new Error(`${tool} has no command-line binary to run`);
  return runBin(bin, args, options);
}

/** `runTool` for a binary path. */
export function runBin(
  bin: string,
  args: readonly string[],
  options: { cwd: string; env: Record<string, string>; input?: string },
): Promise<ToolRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      resolve({ code, signal, stdout, stderr });
    });
    // stdin is a pipe closed at once (or after `input`): the tool sees end-of-file, never a terminal.
    child.stdin.end(options.input ?? '');
  });
}
