import { spawn, spawnSync } from 'node:child_process';
import { mkdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { BenchContext } from '../harness/bench-context.js';
import type { Section } from '../harness/report.js';
import { ensurePeersInstalled } from '../peers/ensure-peers-installed.js';
import type { PeersChildInput, PeersChildResult } from '../peers/run-peers-child.js';

const BENCH_DIR = resolve(import.meta.dirname, '../..');
const CHILD = join(BENCH_DIR, 'src/peers/run-peers-child.ts');

/**
 * Workload 5: installs the peers outside the workspace (first run only), then forks the same
 * histories with dsh and each peer in a child process — inside a fresh network namespace with no
 * network at all when `unshare -n` works here — and reports them side by side.
 */
export async function runPeersWorkload(context: BenchContext): Promise<Section> {
  const { quick, runs, log } = context;
  const installSeconds = await ensurePeersInstalled(log);
  const dataDir = join(context.dataDir, 'peers');
  const home = join(context.dataDir, 'peers-home');
  await mkdir(dataDir, { recursive: true });
  await mkdir(home, { recursive: true });
  const input: PeersChildInput = {
    sizes: quick ? [1_000, 10_000] : [1_000, 10_000, 100_000],
    runs,
    dataDir,
    resultPath: join(context.dataDir, 'peers-result.json'),
    claudeConfigDir: join(home, '.claude'),
  };
  const isolated = spawnSync('unshare', ['-n', 'true']).status === 0;
  // The child resolves dsh the way this process does (source through `@dsh/source`, or built `dist/`).
  const conditions = process.execArgv.filter((arg) => arg.startsWith('--conditions'));
  const node = [process.execPath, ...conditions, '--import', 'tsx', CHILD, JSON.stringify(input)];
  const [command = process.execPath, ...args] = isolated ? ['unshare', '-n', ...node] : node;
  log(`peers: child process${isolated ? ' in a network namespace without network (unshare -n)' : ''}`);
  await new Promise<void>((resolvePromise, reject) => {
    const child = spawn(command, args, {
      cwd: BENCH_DIR,
      // The peers get a throwaway HOME and Claude config dir: nothing reads or writes the user's.
      env: { ...process.env, HOME: home, CLAUDE_CONFIG_DIR: input.claudeConfigDir },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (code === 0) resolvePromise();
      else reject(new Error(`peers child exited with ${signal ?? String(code)}`));
    });
  });
  const result = JSON.parse(await readFile(input.resultPath, 'utf8')) as PeersChildResult;
  for (const [name, version] of Object.entries(result.versions)) context.recordVersion(name, version);
  return {
    title: '5. Peers, side by side',
    method: `
The same generated conversations (${input.sizes.map((size) => size.toLocaleString('en-US')).join(', ')} dsh events) are written in each peer's own
session format on the same disk, and each peer forks at its record closest to the dsh cut (the first
\`tool/call\` of a multi-call step at or after the middle), through its published npm package's API.
All peers and the baseline run in the same rounds (order rotated). Baseline: copying the dsh parent
file and fsyncing it. Peers run in a child process with a throwaway \`HOME\`${isolated ? ', in a network namespace with no network' : ''}.
The peers are installed from \`tooling/bench/peers/package-lock.json\` into that folder only when the bench runs
(never by the workspace install)${installSeconds > 0 ? `; this run installed them in ${installSeconds.toFixed(0)} s` : ''}.`,
    figures: result.figures,
    tables: result.tables,
    notes: [
      ...result.notes,
      "Where a fork can cut: dsh at any event; pi, Claude Code and the Claude Agent SDK at any record (a message entry or transcript line), which includes between two results of one step; LangGraph only at super-step boundaries (after the `agent` node, or after all of a step's tools ran).",
      'Started or not: only dsh records a call as started (`tool/call`, durable before the tool body runs), so only a dsh child can tell the model which calls may have run in the parent.',
      'The open tail: only dsh stores its repair in the child (synthetic results, `step/end`, `turn/end {forked}`), model-visible and auditable. pi and Claude Code leave the calls dangling in the stored child and patch them when they build the next prompt; LangGraph resumes such a checkpoint into the `tools` node (re-running every call of the step) unless the user writes tool messages, as the bench does.',
      "dsh and the JSONL copy-fork fsync the child before returning; pi (`writeFileSync`), the Claude Agent SDK (a write stream) and LangGraph's SQLite checkpointer (WAL with synchronous=NORMAL) do not, so their figures exclude a durability wait.",
      "LangGraph stores the whole message list in every checkpoint. Its parent thread here is one checkpoint for the turns before the cut's turn, the cut's turn run through the graph (one checkpoint per super-step) and one checkpoint for the rest; building the same history step by step would store about 4.5 GB of message JSON for 10k events and 450 GB for 100k.",
    ],
  };
}
