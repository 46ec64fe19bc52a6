/**
 * fast-check arbitraries of valid V4 session logs built with `LogBuilder`: standalone events, queued
 * input, turns of steps whose calls are declared, started, answered or failed (closed failed steps
 * included), every live turn-end reason, plugin brackets and surface replacements — optionally cut
 * short anywhere, as a crash leaves a log.
 */
import fc from 'fast-check';
import { LogBuilder, type LogEvent, type LogToolEffect, type LogTurnEnd } from './log-builder.js';

type Standalone = 'title' | 'config' | 'queue' | 'plugin' | 'compaction';
type CallSpec = { name: string; effect: LogToolEffect; run: 'declared' | 'started' | 'answered' | 'failed' };
type StepSpec = { text: string; calls: CallSpec[] };
type TurnSpec = { before: Standalone[]; claim: boolean; steps: StepSpec[]; end: LogTurnEnd };

const standalone = fc.constantFrom<Standalone>('title', 'config', 'queue', 'plugin', 'compaction');
const effect = fc.constantFrom<LogToolEffect>('read-only', 'idempotent', 'side-effect', 'unknown');
const call: fc.Arbitrary<CallSpec> = fc.record({
  name: fc.constantFrom('read', 'write', 'search', 'shell'),
  effect,
  run: fc.constantFrom<CallSpec['run']>('declared', 'started', 'answered', 'answered', 'failed'),
});
const step: fc.Arbitrary<StepSpec> = fc.record({ text: fc.constantFrom('', 'thinking', 'done'), calls: fc.array(call, { maxLength: 3 }) });
const turnEnd = fc.constantFrom<LogTurnEnd>(
  { kind: 'completed' },
  { kind: 'completed' },
  { kind: 'cancelled' },
  { kind: 'error', error: { message: 'model failed', code: 'MODEL_ERROR' } },
  { kind: 'max-steps' },
);

/** Options of `arbitraryLog`. */
export type ArbitraryLogOptions = {
  /** Most turns in a log (default 4). */
  maxTurns?: number;
  /** Cut the complete log short at a random length, leaving open turns, steps and calls (default true). */
  truncate?: boolean;
  /** Start the log with a plain `session/end-seed`, as sessions made by a store do (default: either). */
  startWithEndSeed?: boolean;
  /** Continue this log instead of starting empty (e.g. a fork child or a repaired session). */
  after?: readonly LogEvent[];
};

function applyStandalone(log: LogBuilder, kind: Standalone, index: number): void {
  switch (kind) {
    case 'title':
      log.title(`title ${index}`);
      break;
    case 'config':
      log.config({ tools: ['read', 'write'], cwd: `/work/${index}` });
      break;
    case 'queue':
      log.queue(`queued ${index}`);
      break;
    case 'plugin':
      log.plugin('telemetry/mark', { index });
      break;
    case 'compaction':
      log.compaction(`summary ${index}`);
      break;
  }
}

/** Builds a valid log from generated turns; exported so a test can replay a counterexample by hand. */
export function buildGeneratedLog(
  spec: { endSeed: boolean; prelude: Standalone[]; turns: TurnSpec[] },
  after: readonly LogEvent[] = [],
): LogEvent[] {
  const log = LogBuilder.continue(after);
  if (spec.endSeed && after.length === 0) log.endSeed();
  spec.prelude.forEach((kind, index) => {
    applyStandalone(log, kind, index);
  });
  for (const turn of spec.turns) {
    turn.before.forEach((kind, index) => {
      applyStandalone(log, kind, index);
    });
    const queued = [...log.events].reverse().find((event) => event.type === 'input/queued' && event.seq > (lastTurnEnd(log.events) ?? -1));
    const inputId = turn.claim && queued !== undefined ? (queued.data as { inputId: string }).inputId : undefined;
    log.turn({
      user: 'please help',
      ...(inputId === undefined ? {} : { inputId }),
      steps: turn.steps.map((s) => ({ text: s.text, calls: s.calls })),
      end: turn.end,
    });
  }
  return log.events;
}

function lastTurnEnd(events: readonly LogEvent[]): number | undefined {
  for (let index = events.length - 1; index >= 0; index -= 1) if (events[index]?.type === 'turn/end') return index;
  return undefined;
}

/** Valid V4 logs (complete, or cut short anywhere when `truncate` is on). */
export function arbitraryLog(options: ArbitraryLogOptions = {}): fc.Arbitrary<LogEvent[]> {
  const turn: fc.Arbitrary<TurnSpec> = fc.record({
    before: fc.array(standalone, { maxLength: 2 }),
    claim: fc.boolean(),
    steps: fc.array(step, { maxLength: 3 }),
    end: turnEnd,
  });
  const spec = fc.record({
    endSeed: options.startWithEndSeed === undefined ? fc.boolean() : fc.constant(options.startWithEndSeed),
    prelude: fc.array(standalone, { maxLength: 3 }),
    turns: fc.array(turn, { maxLength: options.maxTurns ?? 4 }),
    cut: options.truncate === false ? fc.constant(undefined) : fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
  });
  return spec.map(({ cut, ...rest }) => {
    const after = options.after ?? [];
    const events = buildGeneratedLog(rest, after);
    if (cut === undefined) return events;
    // Any prefix of a valid log is valid: keep the inherited part, cut the generated part anywhere.
    const generated = events.length - after.length;
    return events.slice(0, after.length + Math.max(generated === 0 ? 0 : 1, Math.ceil(cut * generated)));
  });
}

/** A valid log with one of its seqs (every seq is a legal fork cut). */
export function arbitraryLogWithSeq(options: ArbitraryLogOptions = {}): fc.Arbitrary<{ events: LogEvent[]; seq: number }> {
  return arbitraryLog(options)
    .filter((events) => events.length > 0)
    .chain((events) => fc.record({ events: fc.constant(events), seq: fc.integer({ min: 0, max: events.length - 1 }) }));
}
