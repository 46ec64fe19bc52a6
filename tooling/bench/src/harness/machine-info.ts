import { execFile } from 'node:child_process';
import { readFile, statfs } from 'node:fs/promises';
import { cpus, loadavg, release, totalmem, type } from 'node:os';
import { promisify } from 'node:util';

/** What the figures were measured on; printed at the top of the report. */
export interface MachineInfo {
  readonly date: string;
  readonly os: string;
  readonly cpu: string;
  readonly cores: number;
  readonly memoryGiB: number;
  /** 1-minute load average when the run started: other work on the machine. */
  readonly loadAverage: number;
  readonly node: string;
  readonly v8: string;
  /** File system of the directory the benchmark writes into. */
  readonly fileSystem: string;
  readonly commit: string;
  /** Where the dsh packages were loaded from: their TypeScript source (through tsx) or built `dist/`. */
  readonly dshCode: string;
}

const FILE_SYSTEMS: Record<number, string> = {
  0xef53: 'ext4',
  0x58465342: 'xfs',
  0x9123683e: 'btrfs',
  0x01021994: 'tmpfs',
  0x794c7630: 'overlayfs',
  0x2fc12fc1: 'zfs',
  0x65735546: 'fuse',
};

/** Collects machine, runtime and repository facts; never fails (unknown facts read `unknown`). */
export async function collectMachineInfo(dataDir: string, repoRoot: string): Promise<MachineInfo> {
  const cpuList = cpus();
  return {
    date: new Date().toISOString(),
    os: `${await distribution()} (${type()} ${release()})`,
    cpu: cpuList[0]?.model.trim() ?? 'unknown',
    cores: cpuList.length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    loadAverage: loadavg()[0] ?? 0,
    node: process.version,
    v8: process.versions.v8,
    fileSystem: await fileSystemOf(dataDir),
    commit: await gitCommit(repoRoot),
    dshCode: import.meta.resolve('dsh-session').includes('/src/')
      ? 'TypeScript source through tsx (`@dsh/source` condition)'
      : 'built `dist/` (what users install)',
  };
}

async function distribution(): Promise<string> {
  try {
    const text = await readFile('/etc/os-release', 'utf8');
    return /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(text)?.[1] ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

async function fileSystemOf(dir: string): Promise<string> {
  try {
    const stats = await statfs(dir);
    return FILE_SYSTEMS[stats.type] ?? `type 0x${stats.type.toString(16)}`;
  } catch {
    return 'unknown';
  }
}

async function gitCommit(repoRoot: string): Promise<string> {
  const run = promisify(execFile);
  try {
    const { stdout: head } = await run('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoRoot });
    const { stdout: status } = await run('git', ['status', '--porcelain'], { cwd: repoRoot });
    return `${head.trim()}${status.trim() === '' ? '' : ' (with uncommitted changes)'}`;
  } catch {
    return 'unknown';
  }
}
