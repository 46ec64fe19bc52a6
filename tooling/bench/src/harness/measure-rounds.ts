/** What a step measures: one metric, or several named ones (recorded as `step.metric`). */
export type StepResult = number | Readonly<Record<string, number>>;

/** What `measureRounds` repeats. */
export interface MeasureRoundsOptions {
  readonly runs: number;
  /** Unrecorded rounds run first, so JIT warm-up and cold caches land in no series. */
  readonly warmup?: number;
  /** Named measurements taken once per round. */
  readonly steps: Readonly<Record<string, () => Promise<StepResult>>>;
  /** Called after every round (e.g. to delete files), outside any measurement. */
  readonly afterRound?: () => Promise<void>;
}

/** One series per metric; value `i` of every series comes from round `i`. */
export type RoundSeries = Readonly<Record<string, readonly number[]>>;

/**
 * Runs every step once per round for `runs` rounds, rotating which step goes first, so machine
 * noise that drifts over seconds (other processes, page cache, thermal) hits every series alike.
 * Series pair by index: a subject's value `i` and its baseline's value `i` come from the same round.
 */
export async function measureRounds(options: MeasureRoundsOptions): Promise<RoundSeries> {
  const { runs, warmup = 0, steps, afterRound } = options;
  if (!Number.isInteger(runs) || runs < 1) throw new RangeError(`measureRounds: expected runs ≥ 1, received ${runs}`);
  const names = Object.keys(steps);
  const series: Record<string, number[]> = {};
  const record = (key: string, value: number): void => {
    (series[key] ??= []).push(value);
  };
  for (let round = -warmup; round < runs; round += 1) {
    const offset = ((round % names.length) + names.length) % names.length;
    for (const name of [...names.slice(offset), ...names.slice(0, offset)]) {
      const step = steps[name];
      if (!step) continue;
      const result = await step();
      if (round < 0) continue;
      if (typeof result === 'number') record(name, result);
      else for (const [metric, value] of Object.entries(result)) record(`${name}.${metric}`, value);
    }
    if (afterRound) await afterRound();
  }
  return series;
}

/** The series named `key`; throws when a step never recorded it (a typo in a workload). */
export function seriesOf(series: RoundSeries, key: string): readonly number[] {
  const values = series[key];
  if (!values) throw new RangeError(`no series "${key}"; recorded: ${Object.keys(series).join(', ')}`);
  return values;
}

/** Milliseconds taken by `fn`, from a monotonic clock. */
export async function timeMs(fn: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** Milliseconds taken by synchronous `fn`, from a monotonic clock. */
export function timeSyncMs(fn: () => unknown): number {
  const start = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** The largest histories take seconds per repetition: they run at most 3 rounds, to keep a full run near 10 minutes. */
export function roundsFor(runs: number, historyEvents: number): number {
  return historyEvents >= 100_000 ? Math.min(runs, 3) : runs;
}
