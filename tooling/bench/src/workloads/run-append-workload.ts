import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { SessionEvent } from 'dsh-codec';
import { openSessionStore, type Session } from 'dsh-session';
import type { BenchContext } from '../harness/bench-context.js';
import { figureOf, type Figure } from '../harness/figure.js';
import { rawAppendPerBatch, rawAppendPerEvent } from '../harness/fs-baselines.js';
import { measureRounds, seriesOf, timeMs } from '../harness/measure-rounds.js';
import type { Section } from '../harness/report.js';
import { percentile } from '../harness/summarize.js';
import { generateV4Log } from '../generate/generate-v4-log.js';

const WORKLOAD = 'Durable append';
const WRITERS = [1, 8, 64] as const;
const BATCH = 500;

/**
 * Workload 1: events/s of 1, 8 and 64 writers sharing one session, each appending one event and
 * awaiting `flush()` (group commit may batch them); sustained batched appends; `flush()` latency.
 * Baselines, same disk, same rounds: `write` + `fdatasync` per event, and per batch.
 */
export async function runAppendWorkload(context: BenchContext): Promise<Section> {
  const { quick, runs, log } = context;
  const rawDir = join(context.dataDir, 'append-raw');
  await mkdir(rawDir, { recursive: true });
  const stream = generateV4Log({ events: quick ? 8_000 : 40_000, seed: 11 }).events;
  const lines = stream.map(lineOf);
  const rawPath = join(rawDir, 'raw.jsonl');
  const perEventCount = quick ? 60 : 200;
  const writerEvents: Record<(typeof WRITERS)[number], number> = quick ? { 1: 60, 8: 400, 64: 2_000 } : { 1: 200, 8: 1_600, 64: 10_000 };
  const sustainedCount = quick ? 5_000 : 30_000;

  const store = await openSessionStore({ dir: join(context.dataDir, 'append') });
  let sessions = 0;
  const withSession = async <T>(fn: (session: Session) => Promise<T>): Promise<T> => {
    sessions += 1;
    const session = await store.create({ id: `append-${String(sessions)}` });
    try {
      return await fn(session);
    } finally {
      await session.close();
    }
  };

  log(`append: ${runs} rounds of raw per-event/per-batch baselines, 1/8/64 writers and a sustained writer`);
  let series;
  try {
    const steps: Record<string, () => Promise<number | Record<string, number>>> = {
      rawPerEvent: async () => {
        const { eventsPerSecond, latenciesMs } = await rawAppendPerEvent(rawPath, lines.slice(0, perEventCount));
        return {
          rate: eventsPerSecond,
          fsyncMs: percentile(
            [...latenciesMs].sort((a, b) => a - b),
            0.5,
          ),
        };
      },
      rawPerBatch: async () => rawAppendPerBatch(rawPath, lines.slice(0, sustainedCount), BATCH),
      sustained: () => withSession((session) => batchedWriter(session, stream.slice(0, sustainedCount), BATCH)),
    };
    for (const writers of WRITERS) {
      steps[`writers${String(writers)}`] = () =>
        withSession((session) => concurrentWriters(session, stream.slice(0, writerEvents[writers]), writers));
    }
    series = await measureRounds({ runs, warmup: 1, steps });
  } finally {
    await store.close();
    await rm(rawDir, { recursive: true, force: true });
  }

  const perEventRate = seriesOf(series, 'rawPerEvent.rate');
  const fsyncMs = seriesOf(series, 'rawPerEvent.fsyncMs');
  const figures: Figure[] = WRITERS.map((writers) =>
    figureOf(
      {
        workload: WORKLOAD,
        label: `${writers} writer${writers === 1 ? '' : 's'}, one session, flush() per event`,
        metric: 'events/s',
        baselineLabel: 'write + fdatasync per event',
        ...(writers === 64 ? { target: { op: '>=', value: 30 } } : {}),
      },
      seriesOf(series, `writers${String(writers)}.rate`),
      perEventRate,
    ),
  );
  figures.push(
    figureOf(
      {
        workload: WORKLOAD,
        label: `sustained, flush() per ${BATCH} appends`,
        metric: 'events/s',
        baselineLabel: 'write + fdatasync per event',
        target: { op: '>=', value: 30 },
      },
      seriesOf(series, 'sustained'),
      perEventRate,
    ),
    figureOf(
      {
        workload: WORKLOAD,
        label: `sustained, flush() per ${BATCH} appends`,
        metric: 'events/s',
        baselineLabel: `write + fdatasync per ${BATCH} events`,
      },
      seriesOf(series, 'sustained'),
      seriesOf(series, 'rawPerBatch'),
    ),
    figureOf(
      {
        workload: WORKLOAD,
        label: 'flush() latency, 1 writer (median)',
        metric: 'ms',
        baselineLabel: 'one write + fdatasync (median)',
        target: { op: '<=', value: 1.25 },
      },
      seriesOf(series, 'writers1.flushP50'),
      fsyncMs,
    ),
    figureOf(
      {
        workload: WORKLOAD,
        label: 'flush() latency, 64 writers (median)',
        metric: 'ms',
        baselineLabel: 'one write + fdatasync (median)',
        target: { op: '<=', value: 2 },
      },
      seriesOf(series, 'writers64.flushP50'),
      fsyncMs,
    ),
    figureOf(
      {
        workload: WORKLOAD,
        label: 'flush() latency, 64 writers (p99)',
        metric: 'ms',
        baselineLabel: 'one write + fdatasync (median)',
      },
      seriesOf(series, 'writers64.flushP99'),
      fsyncMs,
    ),
  );

  const sustainedMedian = [...seriesOf(series, 'sustained')].sort((a, b) => a - b);
  return {
    title: '1. Durable append (JSONL store, group commit)',
    method: `
Writers are async loops in one process sharing **one** session (\`openSessionStore\`, JSONL on the same
disk); each appends the next event of a generated coding-agent log (${lines.length.toLocaleString('en-US')} realistic
events, tool outputs up to ~2.5 kB) and awaits \`flush()\` before appending again, so every event is
durable before its writer moves on. Group commit may cover many writers' events with one \`fdatasync\`.
The sustained case appends ${sustainedCount.toLocaleString('en-US')} events, awaiting \`flush()\` every ${BATCH}. Baselines write the
same lines with \`FileHandle.write\` + \`datasync()\`: per event (${perEventCount} events), and per batch of ${BATCH}.
Flush latency is the time of each \`await flush()\`; its baseline is the median latency of one
\`write\` + \`fdatasync\` in the same round.`,
    figures,
    notes: [
      `Sustained absolute rate (median): ${Math.round(percentile(sustainedMedian, 0.5)).toLocaleString('en-US')} events/s (issue target: ≥ 100 000 events/s).`,
      'Flush-latency targets read "each flush ≤ one fsync wait": ≤ 1.25× one fsync when idle (encoding and validation on top of the fsync), ≤ 2× under 64 writers (a flush that arrives during an fsync waits for it and then its own).',
      'Why 64 writers stay below 30×: batches are already full (`strace -c`, 2026-12-07: one `fdatasync` per 64 events), so the limit is the CPU a batch costs beside its sync: 8–10 µs per event over all threads (copying and checking the data ~1.5 µs, `serializeEvent` ~1.6 µs, GC ~3 µs, the rest promises, the lease check and the write call; measured with the log on tmpfs), i.e. ~0.5 ms per batch of 64 against a ~0.27 ms fdatasync here — about 25×; 30× needs about 5 µs per event. Overlapping the work with the sync does not help: every writer waits on the batch in flight, so nothing is left to do while it syncs; two overlapping half-batches were measured slower (docs/decisions/2026-12-07-perf-section-24-measured-limits.md, and a second batch in flight in `docs/decisions/2026-11-30-perf-no-pipelined-commit.md`). The same wait is why the 64-writer flush latency is above 2× one fsync at the median.',
    ],
  };
}

/**
 * `writers` async loops share one session; each appends the next event and awaits `flush()`.
 * Returns events/s and the median and p99 latency of the flushes.
 */
async function concurrentWriters(session: Session, events: readonly SessionEvent[], writers: number): Promise<Record<string, number>> {
  let next = 0;
  const flushMs: number[] = [];
  const ms = await timeMs(async () => {
    const loop = async (): Promise<void> => {
      for (let event = events[next]; event !== undefined; event = events[next]) {
        next += 1;
        session.append(event.type, event.data);
        flushMs.push(await timeMs(() => session.flush()));
      }
    };
    await Promise.all(Array.from({ length: writers }, loop));
  });
  flushMs.sort((a, b) => a - b);
  return { rate: events.length / (ms / 1000), flushP50: percentile(flushMs, 0.5), flushP99: percentile(flushMs, 0.99) };
}

/** One writer appends `batch` events at a time and awaits `flush()` after each batch. Returns events/s. */
async function batchedWriter(session: Session, events: readonly SessionEvent[], batch: number): Promise<number> {
  const ms = await timeMs(async () => {
    for (let start = 0; start < events.length; start += batch) {
      for (const event of events.slice(start, start + batch)) session.append(event.type, event.data);
      await session.flush();
    }
  });
  return events.length / (ms / 1000);
}

function lineOf(event: SessionEvent): string {
  return `{"seq":${event.seq},"type":${JSON.stringify(event.type)},"time":${event.time},"data":${JSON.stringify(event.data)}}\n`;
}
