/**
 * Workload 10: fork peers (SPEC §20, issue 26). `host.peers` — what `dsh peers` calls — forks eight
 * peers of one 100,000-event baseline from one observation, against eight plain copies of the
 * baseline's file; and eight concurrent keyless peers' wall time against one peer's.
 */
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { decodeJsonl } from 'dsh-codec';
import { createHost, type Host } from 'dsh-host';
import { openSessionStore } from 'dsh-session';
import type { BenchContext } from '../harness/bench-context.js';
import { figureOf, type Figure } from '../harness/figure.js';
import { formatBytes } from '../harness/format.js';
import { copyAndFsync } from '../harness/fs-baselines.js';
import { measureRounds, roundsFor, seriesOf } from '../harness/measure-rounds.js';
import type { Section } from '../harness/report.js';
import { generateV4Log, v4Jsonl } from '../generate/generate-v4-log.js';

const WORKLOAD = 'Fork peers';
const PEERS = 8;

/** `host.peers` with `count` prompts; resolves with the time until the forks exist and their prompts are queued, and then when every turn ended. */
async function forkPeers(
  host: Host,
  baseline: string,
  cwd: string,
  count: number,
  prompt: string,
): Promise<{ forkMs: number; wallMs: number; ids: string[] }> {
  const started = process.hrtime.bigint();
  const result = await host.peers(baseline, {
    peers: Array.from({ length: count }, () => ({ prompt, config: { cwd, model: 'keyless' } })),
  });
  const forkMs = Number(process.hrtime.bigint() - started) / 1e6;
  const turns = await Promise.all(result.peers.map((peer) => host.turnResult(peer.sessionId, peer.inputId)));
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  const failed = turns.find((turn) => turn.isError);
  if (failed !== undefined) throw new Error(`peer ${failed.sessionId} ended ${failed.stopReason}: ${failed.errorMessage ?? ''}`);
  return { forkMs, wallMs, ids: result.peers.map((peer) => peer.sessionId) };
}

/** Releases and deletes the peers a round made, so every round forks into the same directory size. */
async function dropPeers(host: Host, ids: readonly string[]): Promise<void> {
  for (const id of ids) await host.delete(id);
}

/** Eight copies of the baseline file, each fsynced (the plain way to make eight alternatives). */
async function eightCopies(source: string, dir: string): Promise<number> {
  let total = 0;
  for (let index = 0; index < PEERS; index += 1) total += await copyAndFsync(source, join(dir, `copy-${String(index)}.tmp`));
  await Promise.all(Array.from({ length: PEERS }, (_, index) => rm(join(dir, `copy-${String(index)}.tmp`), { force: true })));
  return total;
}

/** Workload 10 (see the module comment): two figures over the same rounds. */
export async function runForkPeersWorkload(context: BenchContext): Promise<Section> {
  const { quick, runs, log } = context;
  const size = quick ? 10_000 : 100_000;
  const dir = join(context.dataDir, 'fork-peers');
  const workspace = join(context.dataDir, 'fork-peers-workspace');
  const copies = join(context.dataDir, 'fork-peers-copies');
  for (const path of [dir, workspace, copies]) await mkdir(path, { recursive: true });
  const store = await openSessionStore({ dir });
  const host = createHost({ store, cwd: workspace });
  const figures: Figure[] = [];
  const notes: string[] = [];
  try {
    const baseline = `peers-baseline-${String(size)}`;
    const text = v4Jsonl(generateV4Log({ events: size, seed: 47, id: baseline }));
    await store.import(decodeJsonl(text));
    // The copies copy the baseline's whole log: the store keeps it as a manifest naming sealed segments (V7),
    // so its own file is a header of a few hundred bytes.
    const baselinePath = join(copies, `${baseline}.jsonl`);
    await writeFile(baselinePath, text);
    const bytes = (await stat(baselinePath)).size;
    notes.push(
      `Baseline: ${size.toLocaleString('en-US')} events, ${formatBytes(bytes)}; every peer forks after its latest closed turn (the omitted-cut rule).`,
    );
    notes.push(
      "Where the forks' time goes (measured apart on this machine, 100,000 events, 2026-12-07, after JSONL forks by reference): the one observation reads the baseline's manifest; the cut is selected by the store from that observation, reading only the events its rule needs. Each `store.fork(observation)` writes a manifest naming the baseline's segments (~1 KB; with its summary and lease ~4 KB, 31 KB for the eight) and fsyncs it and the folder. The forks share the segment folder's lease (one hold per process; before, each waited for the previous one's fsyncs and the eighth could fail `SESSION_BUSY` after 10 s), and every prompt is queued once every fork settled: a peer's first model request reads its whole inherited history (50,000 events decoded), which held the event loop for seconds while the next siblings were being forked (forks 14–22 s before, 0.45–0.52 s after, in a probe at load ~15–25). The peers' first model requests share one decode of the inherited history (the observation keeps what a read decoded); before, each peer decoded its 50,000 inherited events itself.",
    );
    log(`fork-peers: baseline of ${size} events, ${String(roundsFor(runs, size))} rounds`);
    const series = await measureRounds({
      runs: roundsFor(runs, size),
      warmup: 1,
      steps: {
        copies: async () => ({ ms: await eightCopies(baselinePath, copies) }),
        copy: async () => ({ ms: await copyAndFsync(baselinePath, join(copies, 'one.tmp')) }),
        eight: async () => {
          const { forkMs, wallMs, ids } = await forkPeers(host, baseline, workspace, PEERS, 'list files');
          await dropPeers(host, ids);
          return { forkMs, wallMs };
        },
        one: async () => {
          const { forkMs, wallMs, ids } = await forkPeers(host, baseline, workspace, 1, 'list files');
          await dropPeers(host, ids);
          return { forkMs, wallMs };
        },
      },
    });
    const label = `${size.toLocaleString('en-US')}-event baseline`;
    figures.push(
      figureOf(
        {
          workload: WORKLOAD,
          label: `8 peers forked from one observation (host.peers until every fork is durable and its prompt queued), ${label}`,
          metric: 'ms',
          baselineLabel: '8 copies of the baseline file + fsync each',
          target: { op: '<=', value: 1.5 },
        },
        seriesOf(series, 'eight.forkMs'),
        seriesOf(series, 'copies.ms'),
      ),
      figureOf(
        {
          workload: WORKLOAD,
          label: `8 peers forked from one observation, in total, ${label}`,
          metric: 'ms',
          baselineLabel: 'one copy of the baseline file + fsync',
          target: { op: '<=', value: 1 },
        },
        seriesOf(series, 'eight.forkMs'),
        seriesOf(series, 'copy.ms'),
      ),
      figureOf(
        {
          workload: WORKLOAD,
          label: `wall time of 8 concurrent keyless peers (fork + first turn each), ${label}`,
          metric: 'ms',
          baselineLabel: 'one keyless peer, same baseline',
          target: { op: '<=', value: 2 },
        },
        seriesOf(series, 'eight.wallMs'),
        seriesOf(series, 'one.wallMs'),
      ),
    );
  } finally {
    await host.close();
    await store.close();
  }
  return {
    title: '10. Fork peers',
    method: `
A generated baseline in the current format is imported into a JSONL store (stamped as verified, as every session a store writes; sealed as segments, its file a manifest naming them).
\`host.peers\` — the call behind \`dsh peers\` and \`POST /api/sessions/:id/peers\` — observes it once, selects one cut and forks
one child per prompt from that observation (\`store.fork(observation)\`), each published live with its prompt queued. *Forks*:
from the call until it resolves (every child durable, every prompt queued), against copying the baseline's file eight times
with an fsync each, and against one such copy (the baseline's whole JSONL log, not its manifest; SPEC §24: eight peers cost at most one copy in total). *Wall time*: from the call until every peer's first turn (keyless model, \`list files\`: one tool call, two
steps) ended, eight peers against one. Each round deletes the peers it made.`,
    figures,
    notes,
  };
}
