/**
 * Installs the exact pinned version of a real agent tool (Claude Code, Codex, pi, the Claude Agent
 * SDK) into a cache folder once, with `npm install --prefix`, and reuses it afterwards. Never a
 * dependency of a workspace package: the tools are only ever run by the interop tests.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The tools the interop tests drive. */
export type ToolName = 'claude-code' | 'codex' | 'pi' | 'claude-agent-sdk';

/** Exact versions, checked against the registry (see docs/import.md "Tool versions"). */
export const TOOL_VERSIONS = {
  'claude-code': { pkg: '@anthropic-ai/claude-code', version: '2.1.332', bin: 'claude' },
  codex: { pkg: '@openai/codex', version: '0.169.0', bin: 'codex' },
  pi: { pkg: '@mariozechner/pi-coding-agent', version: '0.73.1', bin: 'pi' },
  'claude-agent-sdk': { pkg: '@anthropic-ai/claude-agent-sdk', version: '0.3.333', bin: undefined },
} as const satisfies Record<ToolName, { pkg: string; version: string; bin: string | undefined }>;

/**
 * Other exact versions the tests also run, for the range SPEC §26 claims (Codex 0.169–0.171; Claude
 * Code up to 2.1.337, the newest the registry serves, on the native fork test): each installed into
 * its own cache folder beside the default one (`installTool(tool, version)`).
 */
export const ALSO_PINNED: Partial<Record<ToolName, readonly string[]>> = { codex: ['0.171.0'], 'claude-code': ['2.1.337'] };

/** Every pinned version of `tool`: the default first. */
export function pinnedVersions(tool: ToolName): readonly string[] {
  return [TOOL_VERSIONS[tool].version, ...(ALSO_PINNED[tool] ?? [])];
}

/** Where an installed tool lives: its prefix folder, its package folder and its bin (when it has one). */
export type InstalledTool = {
  tool: ToolName;
  version: string;
  prefix: string;
  packageDir: string;
  bin: string | undefined;
  /** True when this call ran npm; false when the cache already held the tool. */
  installed: boolean;
};

const MARKER = '.dsh-installed';

/** `$DSH_INTEROP_CACHE`, or `~/.cache/dsh-interop`. */
export function interopCacheDir(): string {
  return process.env.DSH_INTEROP_CACHE ?? join(homedir(), '.cache', 'dsh-interop');
}

/** Why the interop tests should skip here (`DSH_SKIP_INTEROP=1`), or undefined when they run. */
export function interopSkipReason(): string | undefined {
  return process.env.DSH_SKIP_INTEROP === '1' ? 'DSH_SKIP_INTEROP=1' : undefined;
}

/**
 * Installs `tool` at its pinned version (or `version`, one of `pinnedVersions(tool)`: any other is
 * refused) unless the cache already holds it (a marker file written last, atomically). Two
 * installers at once: one takes the lock folder, the other waits for the marker. Prints the
 * installed size and time to stderr.
 */
export async function installTool(tool: ToolName, version: string = TOOL_VERSIONS[tool].version): Promise<InstalledTool> {
  const { pkg, bin } = TOOL_VERSIONS[tool];
  if (!pinnedVersions(tool).includes(version))
    throw new Error(`${tool}@${version} is not pinned: expected one of ${pinnedVersions(tool).join(', ')}`);
  const prefix = join(interopCacheDir(), `${tool}@${version}`);
  const packageDir = join(prefix, 'node_modules', ...pkg.split('/'));
  const result = (installed: boolean): InstalledTool => ({
    tool,
    version,
    prefix,
    packageDir,
    bin: bin === undefined ? undefined : join(prefix, 'node_modules', '.bin', bin),
    installed,
  });
  if (await exists(join(prefix, MARKER))) return cached(prefix, pkg, version, result(false));
  await mkdir(interopCacheDir(), { recursive: true });
  const lock = `${prefix}.lock`;
  for (;;) {
    try {
      await mkdir(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // Another installer holds the lock: poll for its marker (or for the lock to go away).
      await new Promise((resolve) => setTimeout(resolve, 500));
      if (await exists(join(prefix, MARKER))) return cached(prefix, pkg, version, result(false));
      await breakStaleLock(lock);
    }
  }
  try {
    if (await exists(join(prefix, MARKER))) return result(false);
    await writeFile(join(lock, 'pid'), String(process.pid));
    await rm(prefix, { recursive: true, force: true });
    await mkdir(prefix, { recursive: true });
    const started = performance.now();
    await runNpm(['install', '--prefix', prefix, '--no-audit', '--no-fund', '--save-exact', `${pkg}@${version}`]);
    const seconds = (performance.now() - started) / 1000;
    const bytes = await folderSize(prefix);
    const temp = join(prefix, `${MARKER}.tmp`);
    const handle = await open(temp, 'w');
    await handle.writeFile(JSON.stringify({ pkg, version, bytes, seconds }) + '\n');
    await handle.sync();
    await handle.close();
    await rename(temp, join(prefix, MARKER));
    reported.add(prefix);
    process.stderr.write(`interop: installed ${pkg}@${version} size=${(bytes / 1e6).toFixed(1)}MB time=${seconds.toFixed(1)}s\n`);
    return result(true);
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}

const reported = new Set<string>();

/** Prints, once per process, the size and time the cached install took when it was made. */
async function cached(prefix: string, pkg: string, version: string, installed: InstalledTool): Promise<InstalledTool> {
  if (!reported.has(prefix)) {
    reported.add(prefix);
    const marker = JSON.parse(await readFile(join(prefix, MARKER), 'utf8')) as { bytes: number; seconds: number };
    process.stderr.write(
      `interop: cached ${pkg}@${version} size=${(marker.bytes / 1e6).toFixed(1)}MB install-time=${marker.seconds.toFixed(1)}s (${prefix})\n`,
    );
  }
  return installed;
}

async function breakStaleLock(lock: string): Promise<void> {
  try {
    const pid = Number(readFileSync(join(lock, 'pid'), 'utf8'));
    if (!Number.isInteger(pid) || pid <= 0) return;
    try {
      process.kill(pid, 0);
    } catch {
      await rm(lock, { recursive: true, force: true });
    }
  } catch {
    // No pid yet: the holder is between mkdir and writing it.
  }
}

function runNpm(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve();
      else reject(new Error(`npm ${args.join(' ')} exited ${String(code)}: ${stderr.slice(-2000)}`));
    });
  });
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

async function folderSize(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += await folderSize(path);
    else if (entry.isFile()) total += (await stat(path)).size;
  }
  return total;
}
