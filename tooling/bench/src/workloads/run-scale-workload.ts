import { existsSync } from 'node:fs';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { materializeLogFile, openSessionStore } from 'dsh-session';
import type { BenchContext } from '../harness/bench-context.js';
import { figureOf, type Figure } from '../harness/figure.js';
import { formatBytes, formatMilliseconds, formatRatio } from '../harness/format.js';
import { copyAndFsync } from '../harness/fs-baselines.js';
import { measureRounds, roundsFor, seriesOf, type StepResult } from '../harness/measure-rounds.js';
import type { Section } from '../harness/report.js';
import { runMeasuredProcess, writeMeasuredWrapper } from '../harness/run-measured-process.js';
import { summarize } from '../harness/summarize.js';
import { findOpenStepCut } from '../generate/find-open-step-cut.js';
import { generateV4Log } from '../generate/generate-v4-log.js';

const WORKLOAD = 'Scale';
const PARENT = 'scale-parent';
/** Sessions of the same size beside the parent: what `dsh sessions` and resolving an id must not read. */
const OTHERS = ['scale-other-1', 'scale-other-2'];
/** Small sessions in a second folder beside a copy of the parent: `dsh fork` must not pay for them (SPEC §24). */
const CROWD = 1_000;
const CLI_MAIN = resolve(import.meta.dirname, '../../../../apps/cli/dist/main.js');

/** `store.fork` alone, in its own process: prints the fork's own milliseconds. */
const STORE_FORK_SCRIPT = `const [sessionUrl, dir, id, at, childId] = process.argv.slice(2);
const { openSessionStore } = await import(sessionUrl);
const store = await openSessionStore({ dir });
const start = process.hrtime.bigint();
const child = await store.fork(id, { atSeq: Number(at), id: childId });
const ms = Number(process.hrtime.bigint() - start) / 1e6;
await child.close();
await store.close();
process.stdout.write(JSON.stringify({ ms }));
`;

/** The parse baseline in its own process: read the file, \`JSON.parse\` every line; prints its milliseconds. */
const JSON_PARSE_SCRIPT = `import { readFile } from 'node:fs/promises';
const start = process.hrtime.bigint();
const text = await readFile(process.argv[2], 'utf8');
let count = 0;
for (let at = 0; at < text.length; ) {
  let end = text.indexOf('\\n', at);
  if (end === -1) end = text.length;
  if (end > at) { JSON.parse(text.slice(at, end)); count += 1; }
  at = end + 1;
}
const ms = Number(process.hrtime.bigint() - start) / 1e6;
process.stdout.write(JSON.stringify({ ms, count }));
`;

type SizeRow = { size: number; fileBytes: number; medians: Record<string, number> };

/**
 * Workload: how the cost of what users run grows with history — 10k, 100k and (full bench only) 1M
 * events. Each case runs in its own process, timed and with its peak RSS: `store.fork`, `dsh fork ID
 * --at N` end to end, `dsh sessions` over a folder holding two other sessions of the same size, and
 * `dsh -p … --resume ID` (one keyless turn), against copying the parent (+ fsync) and `JSON.parse` of it.
 */
export async function runScaleWorkload(context: BenchContext): Promise<Section> {
  const { quick, runs, log, dataDir } = context;
  if (!existsSync(CLI_MAIN)) throw new Error(`${CLI_MAIN} is missing: build the CLI first (pnpm turbo run build --filter dsh-cli...)`);
  const sizes = quick ? [10_000, 100_000] : [10_000, 100_000, 1_000_000];
  const wrapper = await writeMeasuredWrapper(dataDir);
  const storeFork = join(dataDir, 'scale-store-fork.mjs');
  const jsonParse = join(dataDir, 'scale-json-parse.mjs');
  await writeFile(storeFork, STORE_FORK_SCRIPT);
  await writeFile(jsonParse, JSON_PARSE_SCRIPT);
  const sessionUrl = import.meta.resolve('dsh-session');
  // From source (`bench:source`) the store-fork process reads dsh-session's TypeScript as this one does.
  const sourceArgs = sessionUrl.endsWith('.ts') ? ['--conditions=@dsh/source', '--import', import.meta.resolve('tsx')] : [];
  const figures: Figure[] = [];
  const rows: SizeRow[] = [];
  const notes: string[] = [];

  for (const size of sizes) {
    const dir = join(dataDir, `scale-${String(size)}`);
    await mkdir(dir, { recursive: true });
    const crowdDir = join(dataDir, `scale-${String(size)}-crowd`);
    await mkdir(crowdDir, { recursive: true });
    const cut = await writeSessions(dir, crowdDir, size);
    // The store keeps the parent as a manifest naming sealed segments (SPEC §24): the baselines copy and
    // parse the one self-contained log it stands for, written beside the folder.
    const parentFile = join(dataDir, `scale-${String(size)}-parent-whole.jsonl`);
    await writeFile(parentFile, await materializeLogFile(join(dir, `${PARENT}.jsonl`), await readFile(join(dir, `${PARENT}.jsonl`))));
    const fileBytes = (await stat(parentFile)).size;
    const label = `${size.toLocaleString('en-US')} events`;
    notes.push(
      `${label}: parent file ${formatBytes(fileBytes)} (and two more of that size in its folder; a copy beside ${String(CROWD)} sessions of 200 events in another), cut at seq ${String(cut)}.`,
    );
    log(`scale: ${label}, ${formatBytes(fileBytes)} per session`);
    const children: string[] = [];
    const crowdChildren: string[] = [];
    let forks = 0;
    const cli = async (args: readonly string[], where = dir): Promise<StepResult> => {
      const run = await runMeasuredProcess(wrapper, CLI_MAIN, [...args, '--data', where], where);
      if (args[0] === 'fork') (where === dir ? children : crowdChildren).push(run.stdout.trim());
      return { ms: run.ms, rss: run.peakRssBytes };
    };
    const series = await measureRounds({
      runs: roundsFor(runs, size),
      // The first round builds each session's summary file once (see docs/decisions/2026-12-07-jsonl-summary-files.md).
      warmup: 1,
      steps: {
        copy: async () => ({ ms: await copyAndFsync(parentFile, join(dataDir, 'scale-copy.tmp')) }),
        parse: async () => {
          const run = await runMeasuredProcess(wrapper, jsonParse, [parentFile], dir);
          return { ms: (JSON.parse(run.stdout) as { ms: number }).ms, rss: run.peakRssBytes };
        },
        storeFork: async () => {
          const childId = `scale-store-child-${String(++forks)}`;
          children.push(childId);
          const run = await runMeasuredProcess(wrapper, storeFork, [sessionUrl, dir, PARENT, String(cut), childId], dir, sourceArgs);
          return { ms: (JSON.parse(run.stdout) as { ms: number }).ms, rss: run.peakRssBytes };
        },
        cliFork: () => cli(['fork', PARENT, '--at', String(cut)]),
        crowdFork: () => cli(['fork', PARENT, '--at', String(cut)], crowdDir),
        sessions: () => cli(['sessions']),
        crowdSessions: () => cli(['sessions'], crowdDir),
        resume: () => cli(['-p', 'one more step', '--resume', PARENT, '--model', 'keyless']),
      },
      afterRound: async () => {
        for (const [where, made] of [
          [dir, children],
          [crowdDir, crowdChildren],
        ] as const) {
          const store = await openSessionStore({ dir: where });
          try {
            for (const id of made.splice(0)) await store.delete(id);
          } finally {
            await store.close();
          }
        }
      },
    });
    const medians: Record<string, number> = {};
    for (const key of Object.keys(series)) medians[key] = summarize(seriesOf(series, key)).median;
    rows.push({ size, fileBytes, medians });
    const fileSeries = seriesOf(series, 'copy.ms').map(() => fileBytes);
    figures.push(
      figureOf(
        {
          workload: WORKLOAD,
          label: `store.fork (own process), ${label}`,
          metric: 'ms',
          baselineLabel: 'copy parent file + fsync',
          ...(size === 100_000 ? { target: { op: '<=', value: 0.2 } as const } : {}),
        },
        seriesOf(series, 'storeFork.ms'),
        seriesOf(series, 'copy.ms'),
      ),
      figureOf(
        { workload: WORKLOAD, label: `dsh fork ID --at N, end to end, ${label}`, metric: 'ms', baselineLabel: 'copy parent file + fsync' },
        seriesOf(series, 'cliFork.ms'),
        seriesOf(series, 'copy.ms'),
      ),
      figureOf(
        { workload: WORKLOAD, label: `dsh fork ID --at N, peak RSS, ${label}`, metric: 'bytes', baselineLabel: 'parent file size' },
        seriesOf(series, 'cliFork.rss'),
        fileSeries,
      ),
      figureOf(
        {
          workload: WORKLOAD,
          label: `dsh fork ID --at N, folder with ${CROWD.toLocaleString('en-US')} more sessions, ${label}`,
          metric: 'ms',
          baselineLabel: 'the same fork in a folder of 3 sessions',
          target: { op: '<=', value: 1.1 },
        },
        seriesOf(series, 'crowdFork.ms'),
        seriesOf(series, 'cliFork.ms'),
      ),
      figureOf(
        {
          workload: WORKLOAD,
          label: `dsh sessions, folder of 3 such sessions, ${label}`,
          metric: 'ms',
          baselineLabel: 'copy parent file + fsync',
        },
        seriesOf(series, 'sessions.ms'),
        seriesOf(series, 'copy.ms'),
      ),
      figureOf(
        { workload: WORKLOAD, label: `dsh sessions, peak RSS, ${label}`, metric: 'bytes', baselineLabel: 'parent file size' },
        seriesOf(series, 'sessions.rss'),
        fileSeries,
      ),
      // SPEC §24's `dsh sessions` target is over 1,000 sessions: the count, not their bytes, is what a listing by summary pays for.
      figureOf(
        {
          workload: WORKLOAD,
          label: `dsh sessions, folder of ${String(CROWD + 1)} sessions (the parent and ${CROWD.toLocaleString('en-US')} of 200 events), ${label}`,
          metric: 'ms',
          baselineLabel: 'dsh sessions, folder of 3 such sessions',
        },
        seriesOf(series, 'crowdSessions.ms'),
        seriesOf(series, 'sessions.ms'),
      ),
      figureOf(
        {
          workload: WORKLOAD,
          label: `dsh sessions, folder of ${String(CROWD + 1)} sessions, peak RSS, ${label}`,
          metric: 'bytes',
          baselineLabel: 'parent file size',
        },
        seriesOf(series, 'crowdSessions.rss'),
        fileSeries,
      ),
      figureOf(
        {
          workload: WORKLOAD,
          label: `resume + one keyless turn (dsh -p --resume), ${label}`,
          metric: 'ms',
          baselineLabel: 'JSON.parse of the parent file',
          target: { op: '<=', value: 1.5 },
        },
        seriesOf(series, 'resume.ms'),
        seriesOf(series, 'parse.ms'),
      ),
      figureOf(
        {
          workload: WORKLOAD,
          label: `resume + one keyless turn, peak RSS, ${label}`,
          metric: 'bytes',
          baselineLabel: 'parent file size',
          target: { op: '<=', value: 1.5 },
        },
        seriesOf(series, 'resume.rss'),
        fileSeries,
      ),
    );
  }
  notes.push(
    'Every case is a process of its own, so its peak RSS (`ru_maxrss`) is its own: a `dsh` command includes Node’s start and module loading (about 40 MB and tens of ms here). SPEC §24’s absolute targets at 1,000,000 events: `dsh fork` ≤ 0.5 s and ≤ 150 MB; `dsh sessions` over 10 GB ≤ 1 s and ≤ 150 MB.',
  );
  return {
    title: 'Scale: cost against history length',
    method: `
Per size, a generated conversation (the fork workload's generator) is imported into a JSONL folder as the parent and as
two other sessions of the same size. Each round runs, each in its own Node process timed from spawn to exit with its
peak RSS: \`store.fork\` of the parent cut mid-step (its own time inside the process), \`dsh fork ${PARENT} --at N\`
(the built CLI, \`apps/cli/dist\`) — also in a second folder holding a copy of the parent beside ${String(CROWD)}
sessions of 200 events (the same fork must not pay for them) — \`dsh sessions\` over the folder and over that second one
(SPEC §24's listing target counts 1,000 sessions), and \`dsh -p … --resume ${PARENT}\` (one keyless
turn, appended to the parent). Baselines from the same round: copying the parent file with \`fsync\` of the copy and
its folder, and a process reading the file and \`JSON.parse\`-ing every line (its parse time). The forks made are deleted
after each round. 1,000,000 events run only in the full bench.`,
    figures,
    tables: [
      {
        caption: 'Median time and peak RSS per size (growth from the previous size, for 10× more events)',
        headers: ['history', 'store.fork', 'dsh fork', 'dsh sessions', 'resume + turn', 'copy + fsync', 'JSON.parse'],
        rows: rows.map((row, index) => {
          const previous = rows[index - 1];
          const cell = (key: string, unit: 'ms' | 'bytes'): string => {
            const value = row.medians[key] ?? Number.NaN;
            const before = previous?.medians[key];
            const text = unit === 'ms' ? formatMilliseconds(value) : formatBytes(value);
            return before === undefined ? text : `${text} (${formatRatio(value / before)})`;
          };
          const both = (name: string): string => `${cell(`${name}.ms`, 'ms')}, ${cell(`${name}.rss`, 'bytes')}`;
          return [
            `${row.size.toLocaleString('en-US')} events (${formatBytes(row.fileBytes)})`,
            both('storeFork'),
            both('cliFork'),
            both('sessions'),
            both('resume'),
            cell('copy.ms', 'ms'),
            both('parse'),
          ];
        }),
      },
    ],
    notes,
  };
}

/**
 * Writes the parent and the other sessions of `size` events into `dir`, and the parent with `CROWD`
 * sessions of 200 events into `crowdDir`, through a store (stamped as it stamps); the cut.
 */
async function writeSessions(dir: string, crowdDir: string, size: number): Promise<number> {
  const log = generateV4Log({ events: size, seed: 41, id: PARENT });
  const small = generateV4Log({ events: 200, seed: 7, id: 'scale-crowd' });
  const store = await openSessionStore({ dir });
  const crowd = await openSessionStore({ dir: crowdDir });
  try {
    for (const id of [PARENT, ...OTHERS]) await store.import({ header: { ...log.header, id }, events: log.events });
    await crowd.import({ header: { ...log.header, id: PARENT }, events: log.events });
    for (let index = 0; index < CROWD; index++)
      await crowd.import({ header: { ...small.header, id: `scale-crowd-${String(index)}` }, events: small.events });
  } finally {
    await Promise.all([store.close(), crowd.close()]);
  }
  return findOpenStepCut(log.events, Math.floor(size / 2));
}
