import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { decodeJsonl } from 'dsh-codec';
import { openSessionStore } from 'dsh-session';
import type { BenchContext } from '../harness/bench-context.js';
import { figureOf, type Figure } from '../harness/figure.js';
import { formatBytes } from '../harness/format.js';
import { parseAndKeepLines, parseLines } from '../harness/fs-baselines.js';
import { measureRounds, roundsFor, seriesOf, timeMs, timeSyncMs } from '../harness/measure-rounds.js';
import type { Section } from '../harness/report.js';
import { generateV0Log, v0Jsonl } from '../generate/generate-v0-log.js';
import { generateV4Log, v4Jsonl } from '../generate/generate-v4-log.js';

const WORKLOAD = 'Open';

/**
 * Workload 2: `decodeJsonl` (decode + validate + migrate to the current version) of current (V5) and
 * V0 logs, and `SessionStore.open` of a stored current log, against raw `JSON.parse` of the same lines (events/s).
 */
export async function runOpenWorkload(context: BenchContext): Promise<Section> {
  const { quick, runs, log } = context;
  const sizes = quick ? [1_000, 10_000] : [10_000, 100_000];
  const dir = join(context.dataDir, 'open');
  await mkdir(dir, { recursive: true });
  const store = await openSessionStore({ dir });
  const figures: Figure[] = [];
  const notes: string[] = [];
  try {
    for (const size of sizes) {
      const v4Id = `open-v4-${String(size)}`;
      const v4Text = v4Jsonl(generateV4Log({ events: size, seed: 21, id: v4Id }));
      const v0Text = v0Jsonl(generateV0Log({ events: size, seed: 21 }).events);
      const v4Path = join(dir, `${v4Id}.jsonl`);
      await writeFile(v4Path, v4Text);
      notes.push(
        `${size.toLocaleString('en-US')} events: V5 file ${formatBytes(Buffer.byteLength(v4Text))}, V0 file ${formatBytes(Buffer.byteLength(v0Text))}.`,
      );
      const rate = (ms: number): number => size / (ms / 1000);
      log(`open: ${size} events, V5 and V0, ${runs} rounds`);
      // Each case runs in its own rotation with its baseline. A decode leaves ~its whole log behind as
      // garbage, and whichever step runs next pays to collect it: with all six steps in one fixed cycle,
      // each baseline always came right after a dsh step (and paid), each dsh step never did. In a pair
      // the two alternate, so each follows the dsh step in half of the rounds.
      const pair = async (steps: Readonly<Record<string, () => Promise<number>>>) =>
        measureRounds({ runs: roundsFor(runs, size), warmup: 1, steps });
      const series = {
        ...(await pair({
          parseV4: () => Promise.resolve(rate(timeSyncMs(() => parseLines(v4Text)))),
          decodeV4: () => Promise.resolve(rate(timeSyncMs(() => decodeJsonl(v4Text)))),
        })),
        ...(await pair({
          parseForKeep: () => Promise.resolve(rate(timeSyncMs(() => parseLines(v4Text)))),
          keepV4: () => Promise.resolve(rate(timeSyncMs(() => parseAndKeepLines(v4Text)))),
        })),
        ...(await pair({
          parseV0: () => Promise.resolve(rate(timeSyncMs(() => parseLines(v0Text)))),
          decodeV0: () => Promise.resolve(rate(timeSyncMs(() => decodeJsonl(v0Text, { sessionId: 'open-v0' })))),
        })),
        ...(await pair({
          readParseV4: async () =>
            rate(
              await timeMs(async () => {
                parseLines(await readFile(v4Path, 'utf8'));
              }),
            ),
          storeOpenV4: async () =>
            rate(
              await timeMs(async () => {
                const session = await store.open(v4Id);
                await session.close();
              }),
            ),
        })),
      };
      const label = `${size.toLocaleString('en-US')} events`;
      figures.push(
        figureOf(
          {
            workload: WORKLOAD,
            label: `decodeJsonl, V5 (current), ${label}`,
            metric: 'events/s',
            baselineLabel: 'JSON.parse per line',
            target: { op: '>=', value: 0.6 },
          },
          seriesOf(series, 'decodeV4'),
          seriesOf(series, 'parseV4'),
        ),
        figureOf(
          {
            workload: WORKLOAD,
            label: `JSON.parse per line kept in an array (no validation), V5, ${label}`,
            metric: 'events/s',
            baselineLabel: 'JSON.parse per line',
          },
          seriesOf(series, 'keepV4'),
          seriesOf(series, 'parseForKeep'),
        ),
        figureOf(
          {
            workload: WORKLOAD,
            label: `decodeJsonl, V0 → V5, ${label}`,
            metric: 'events/s',
            baselineLabel: 'JSON.parse per line',
            target: { op: '>=', value: 0.4 },
          },
          seriesOf(series, 'decodeV0'),
          seriesOf(series, 'parseV0'),
        ),
        figureOf(
          {
            workload: WORKLOAD,
            label: `SessionStore.open + close, V5, ${label}`,
            metric: 'events/s',
            baselineLabel: 'readFile + JSON.parse per line',
          },
          seriesOf(series, 'storeOpenV4'),
          seriesOf(series, 'readParseV4'),
        ),
      );
    }
  } finally {
    await store.close();
  }
  return {
    title: '2. Open (decode + validate + migrate)',
    method: `
\`decodeJsonl\` reads a whole log: detects the version, runs that version's frozen validator (shapes and
relationships), migrates step by step to the current version (V5) and validates the result as V5; a
log already in the current version is validated in the same pass that parses it. The logs are generated
coding-agent sessions (queued input, multi-step tool use with up to three calls per step, tool
outputs up to ~2.5 kB, occasional tool errors); the V0 log is the same kind of conversation in the
oldest format. The baseline is \`JSON.parse\` of each line of the same text and nothing else: it keeps
no parsed line, while a decoder must keep every event it returns, so a ratio of 1× would mean that
validation, migration *and keeping the events* cost nothing. Keeping them is not free at the larger size
(the garbage collector copies every kept object out of the young generation): the row "kept in an array"
is \`JSON.parse\` of each line pushed into an array and nothing else, the ceiling of any decoder that
returns the events, against the same baseline. \`SessionStore.open\` adds reading the file, taking the single-writer lease and building the
\`Session\`, and releasing it (\`close\`); its baseline adds \`readFile\`. Each case alternates with its
own baseline: a step pays for collecting what the step before it left behind (a decode leaves its whole
log), so in one fixed cycle of all six steps each baseline came right after a dsh step and each dsh step
right after a baseline, which flattered dsh.`,
    figures,
    notes,
  };
}
