/**
 * @module @dsh/bench
 * `pnpm bench`: measures dsh against this machine's limits and against peer libraries, prints a
 * table and writes docs/benchmarks.md. Every figure is a ratio against a baseline from the same run.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { BenchContext } from './harness/bench-context.js';
import { collectMachineInfo } from './harness/machine-info.js';
import { parseOptions, USAGE, type BenchOptions, type WorkloadName } from './harness/parse-options.js';
import { renderMarkdown } from './harness/render-markdown.js';
import { renderSectionText } from './harness/render-table.js';
import type { Report, Section } from './harness/report.js';
import { runAppendWorkload } from './workloads/run-append-workload.js';
import { runCheckpointWorkload } from './workloads/run-checkpoint-workload.js';
import { runClaudeStoreWorkload } from './workloads/run-claude-store-workload.js';
import { runForkPeersWorkload } from './workloads/run-fork-peers-workload.js';
import { runForkWorkload } from './workloads/run-fork-workload.js';
import { runHostWorkload } from './workloads/run-host-workload.js';
import { runNativeForkWorkload } from './workloads/run-native-fork-workload.js';
import { runImportWorkload } from './workloads/run-import-workload.js';
import { runOpenWorkload } from './workloads/run-open-workload.js';
import { runPeersWorkload } from './workloads/run-peers-workload.js';
import { runPostgresWorkload } from './workloads/run-postgres-workload.js';
import { runScaleWorkload } from './workloads/run-scale-workload.js';

const RUNNERS: Record<WorkloadName, (context: BenchContext) => Promise<Section>> = {
  append: runAppendWorkload,
  open: runOpenWorkload,
  fork: runForkWorkload,
  host: runHostWorkload,
  peers: runPeersWorkload,
  postgres: runPostgresWorkload,
  import: runImportWorkload,
  'native-fork': runNativeForkWorkload,
  'claude-store': runClaudeStoreWorkload,
  'fork-peers': runForkPeersWorkload,
  checkpoint: runCheckpointWorkload,
  scale: runScaleWorkload,
};

const REPO_ROOT = resolve(import.meta.dirname, '../../..');
const REPORT_PATH = join(REPO_ROOT, 'docs/benchmarks.md');

async function main(argv: readonly string[]): Promise<number> {
  let options: BenchOptions;
  try {
    options = parseOptions(argv);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const started = performance.now();
  const dataDir = await mkdtemp(join(tmpdir(), 'dsh-bench-'));
  const versions: Record<string, string> = { ...(await dshVersions()) };
  const log = (message: string): void => {
    process.stderr.write(`[${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${message}\n`);
  };
  const context: BenchContext = {
    quick: options.quick,
    runs: options.runs,
    dataDir,
    log,
    recordVersion: (name, version) => {
      versions[name] = version;
    },
  };
  const machine = await collectMachineInfo(dataDir, REPO_ROOT);
  const sections: Section[] = [];
  let failures = 0;
  try {
    for (const name of options.only) {
      log(`workload ${name}`);
      try {
        const section = await RUNNERS[name](context);
        sections.push(section);
        process.stdout.write(`${renderSectionText(section)}\n`);
      } catch (error) {
        failures += 1;
        const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
        log(`workload ${name} failed: ${message}`);
        sections.push({ title: `${name}: not measured`, method: `The workload failed: \`${firstLine(message)}\``, figures: [] });
      }
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
  const report: Report = {
    machine,
    versions,
    quick: options.quick,
    runs: options.runs,
    seconds: (performance.now() - started) / 1000,
    sections,
  };
  if (options.write) {
    await writeFile(REPORT_PATH, renderMarkdown(report));
    log(`wrote ${REPORT_PATH}`);
  }
  log(`done in ${report.seconds.toFixed(0)} s`);
  return failures === 0 ? 0 : 1;
}

async function dshVersions(): Promise<Record<string, string>> {
  const require = createRequire(import.meta.url);
  const versions: Record<string, string> = { node: process.version };
  for (const name of [
    'dsh-codec',
    'dsh-session',
    'dsh-agent',
    'dsh-host',
    'dsh-postgres',
    'dsh-import',
    'dsh-claude-agent-sdk',
    'dsh-workspace',
  ]) {
    const manifest = JSON.parse(await readFile(require.resolve(`${name}/package.json`), 'utf8')) as { version?: string };
    versions[name] = manifest.version ?? 'unknown';
  }
  return versions;
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0] ?? text;
}

process.exitCode = await main(process.argv.slice(2));
