/**
 * @module `runMeasuredProcess`: one Node process run to its end, its wall time and peak resident
 * memory (its own high-water mark, `VmHWM`, reported by the process itself as it exits), for workloads whose figures are
 * a whole command's cost — what a user running it feels — rather than an in-process call's.
 */
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** What one measured process cost, plus what it printed on stdout. */
export type MeasuredRun = { ms: number; peakRssBytes: number; stdout: string };

const MARKER = '@@dsh-bench-max-rss ';

/**
 * The wrapper every measured process starts from (written once into `dir`): it reports its peak RSS
 * on stderr when it exits, then runs `target` with the remaining arguments as its own.
 */
export async function writeMeasuredWrapper(dir: string): Promise<string> {
  const path = join(dir, 'measured-process.mjs');
  await writeFile(
    path,
    [
      "import { readFileSync } from 'node:fs';",
      'const [target, ...rest] = process.argv.slice(2);',
      'process.argv.splice(1, process.argv.length - 1, target, ...rest);',
      // ru_maxrss is not this process's own on Linux: exec keeps the high-water mark of the memory it replaced
      // (the spawning bench's, copied at fork), so a child of a large parent reports the parent's size. VmHWM
      // is the high-water mark of this process's own memory; elsewhere ru_maxrss is what there is.
      "const peak = () => { try { const m = /^VmHWM:\\s+(\\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8')); if (m) return Number(m[1]) * 1024; } catch {} return process.resourceUsage().maxRSS * 1024; };",
      `process.on('exit', () => process.stderr.write('\\n${MARKER}' + peak() + '\\n'));`,
      'await import(target);',
      '',
    ].join('\n'),
  );
  return path;
}

/**
 * Runs `script` (a file path) with `args` under `wrapper` in `cwd` (`nodeArgs` before it); rejects when it exits non-zero
 * or reports no peak RSS, with its stderr's end.
 */
export function runMeasuredProcess(
  wrapper: string,
  script: string,
  args: readonly string[],
  cwd: string,
  nodeArgs: readonly string[] = [],
): Promise<MeasuredRun> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(process.execPath, [...nodeArgs, wrapper, pathToFileURL(script).href, ...args], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      const reported = stderr.lastIndexOf(MARKER);
      const peakRssBytes =
        reported === -1
          ? Number.NaN
          : Number(
              stderr
                .slice(reported + MARKER.length)
                .trim()
                .split('\n')[0],
            );
      if (code !== 0 || !Number.isFinite(peakRssBytes)) {
        reject(new Error(`${script} ${args.join(' ')} exited ${String(code)}: ${stderr.slice(-600)}`));
        return;
      }
      resolve({ ms, peakRssBytes, stdout });
    });
  });
}
