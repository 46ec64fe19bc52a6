/**
 * Child process of workload 5 (started by `runPeersWorkload`, inside a network namespace with no
 * network when the machine allows it): loads the peers from tooling/bench/peers, forks the same
 * histories with dsh and every peer in the same rounds, and writes the raw results as JSON.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { figureOf, type Figure } from '../harness/figure.js';
import { formatBytes } from '../harness/format.js';
import { copyAndFsync } from '../harness/fs-baselines.js';
import { measureRounds, roundsFor, seriesOf } from '../harness/measure-rounds.js';
import type { FactTable } from '../harness/report.js';
import { findOpenStepCut } from '../generate/find-open-step-cut.js';
import { generateV4Log, v4Jsonl } from '../generate/generate-v4-log.js';
import { claudeSdkPeer, type ClaudeAgentSdk } from './claude-sdk-peer.js';
import { dshPeer } from './dsh-peer.js';
import { jsonlCopyForkPeer } from './jsonl-copy-fork-peer.js';
import { langGraphPeer, type LangGraphModules } from './langgraph-peer.js';
import type { ForkObservation, PeerDriver } from './peer-driver.js';
import { PEER_LOADER, PEER_PACKAGES, PEERS_DIR } from './peer-paths.js';
import { piPeer, type PiCodingAgent } from './pi-peer.js';

/** What the parent passes in (argv[2], JSON). */
export interface PeersChildInput {
  readonly sizes: readonly number[];
  readonly runs: number;
  readonly dataDir: string;
  readonly resultPath: string;
  readonly claudeConfigDir: string;
}

/** What the child writes to `resultPath`. */
export interface PeersChildResult {
  readonly figures: Figure[];
  readonly tables: FactTable[];
  readonly notes: string[];
  readonly versions: Record<string, string>;
}

const WORKLOAD = 'Peers';

async function main(): Promise<void> {
  const input = JSON.parse(process.argv[2] ?? '{}') as PeersChildInput;
  const log = (message: string): void => {
    process.stderr.write(`  [peers] ${message}\n`);
  };
  const loader = (await import(pathToFileURL(PEER_LOADER).href)) as { loadPeer(specifier: string): Promise<unknown> };
  const notes: string[] = [];
  const versions: Record<string, string> = {};
  for (const name of PEER_PACKAGES) {
    const manifest = JSON.parse(await readFile(join(PEERS_DIR, 'node_modules', name, 'package.json'), 'utf8')) as { version?: string };
    versions[name] = manifest.version ?? 'unknown';
  }

  const factories: { name: string; create: () => Promise<PeerDriver> }[] = [
    { name: 'dsh', create: () => Promise.resolve(dshPeer()) },
    { name: 'jsonl', create: () => Promise.resolve(jsonlCopyForkPeer()) },
    { name: 'pi', create: async () => piPeer((await loader.loadPeer('@mariozechner/pi-coding-agent')) as PiCodingAgent) },
    {
      name: 'claude',
      create: async () => claudeSdkPeer((await loader.loadPeer('@anthropic-ai/claude-agent-sdk')) as ClaudeAgentSdk, input.claudeConfigDir),
    },
    {
      name: 'langgraph',
      create: async () =>
        langGraphPeer({
          langgraph: (await loader.loadPeer('@langchain/langgraph')) as LangGraphModules['langgraph'],
          messages: (await loader.loadPeer('@langchain/core/messages')) as LangGraphModules['messages'],
          sqlite: (await loader.loadPeer('@langchain/langgraph-checkpoint-sqlite')) as LangGraphModules['sqlite'],
        }),
    },
  ];

  const figures: Figure[] = [];
  const observations = new Map<string, ForkObservation & { api: string }>();
  const byPeer = new Map<string, Map<number, { latency: number; bytes: number }>>();
  const failed = new Set<string>();
  for (const size of input.sizes) {
    const log4 = generateV4Log({ events: size, seed: 51, id: 'parent' });
    const cut = findOpenStepCut(log4.events, Math.floor(size / 2));
    const sizeDir = join(input.dataDir, String(size));
    const baselinePath = join(sizeDir, 'baseline', 'parent.jsonl');
    await mkdir(join(sizeDir, 'baseline'), { recursive: true });
    const parentText = v4Jsonl(log4);
    await writeFile(baselinePath, parentText);
    const parentBytes = Buffer.byteLength(parentText);

    const drivers: PeerDriver[] = [];
    const parentSizes: string[] = [];
    for (const factory of factories) {
      if (failed.has(factory.name)) continue;
      try {
        const driver = await factory.create();
        const started = performance.now();
        const { parentBytes: peerBytes } = await driver.prepare({ size, events: log4.events, cut, dir: join(sizeDir, factory.name) });
        parentSizes.push(`${driver.name} ${formatBytes(peerBytes)} (written in ${((performance.now() - started) / 1000).toFixed(1)} s)`);
        drivers.push(driver);
      } catch (error) {
        failed.add(factory.name);
        notes.push(`${factory.name}: not measured — ${error instanceof Error ? (error.message.split('\n', 1)[0] ?? '') : String(error)}`);
        log(`${factory.name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      }
    }
    notes.push(
      `${size.toLocaleString('en-US')} events (cut at seq ${String(cut)}): parents — dsh V5 ${formatBytes(parentBytes)}; ${parentSizes.join('; ')}.`,
    );
    log(`${String(size)} events: ${String(drivers.length)} peers ready, ${String(input.runs)} rounds`);

    try {
      const steps: Record<string, () => Promise<Record<string, number>>> = {
        copy: async () => ({ ms: await copyAndFsync(baselinePath, join(sizeDir, 'baseline', 'copy.tmp')), bytes: parentBytes }),
      };
      for (const [index, driver] of drivers.entries()) {
        steps[`peer${String(index)}`] = async () => {
          const { ms, bytes } = await driver.fork();
          return { ms, bytes };
        };
      }
      const series = await measureRounds({ runs: roundsFor(input.runs, size), warmup: size >= 100_000 ? 0 : 1, steps });
      const label = `${size.toLocaleString('en-US')} events`;
      for (const [index, driver] of drivers.entries()) {
        const latency = figureOf(
          { workload: WORKLOAD, label: `${driver.name}, ${label}`, metric: 'ms', baselineLabel: 'copy dsh parent file + fsync' },
          seriesOf(series, `peer${String(index)}.ms`),
          seriesOf(series, 'copy.ms'),
        );
        const bytes = figureOf(
          { workload: WORKLOAD, label: `${driver.name} bytes written, ${label}`, metric: 'bytes', baselineLabel: 'dsh parent file' },
          seriesOf(series, `peer${String(index)}.bytes`),
          seriesOf(series, 'copy.bytes'),
        );
        figures.push(latency, bytes);
        const perSize = byPeer.get(driver.name) ?? new Map<number, { latency: number; bytes: number }>();
        perSize.set(size, { latency: latency.ratio.median, bytes: bytes.ratio.median });
        byPeer.set(driver.name, perSize);
        if (!observations.has(driver.name)) {
          try {
            observations.set(driver.name, { ...(await driver.observe()), api: driver.api });
          } catch (error) {
            notes.push(`${driver.name}: could not inspect a child — ${error instanceof Error ? error.message : String(error)}`);
          }
        }
      }
    } finally {
      for (const driver of drivers) await driver.dispose();
    }
  }

  const tables: FactTable[] = [
    {
      caption: 'Fork latency ÷ copy + fsync of the dsh parent file, median (bytes written ÷ dsh parent file)',
      headers: ['peer', ...input.sizes.map((size) => `${size.toLocaleString('en-US')} events`)],
      rows: [...byPeer].map(([name, perSize]) => [
        name,
        ...input.sizes.map((size) => {
          const cell = perSize.get(size);
          return cell ? `${cell.latency.toPrecision(3)}× (${cell.bytes.toPrecision(2)}×)` : 'not measured';
        }),
      ]),
    },
    {
      caption: 'What each fork could do at the same cut (observed on a child it wrote)',
      headers: ['peer', 'API', 'cut at', 'the stored child ends with', 'records'],
      rows: [...observations].map(([name, observation]) => [
        name,
        observation.api,
        observation.cutAt,
        observation.childEnds,
        observation.records,
      ]),
    },
  ];
  const result: PeersChildResult = { figures, tables, notes, versions };
  await writeFile(input.resultPath, JSON.stringify(result));
}

await main();
