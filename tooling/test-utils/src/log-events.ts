/**
 * @module log-events
 * The table form of the log-builder family: events written as rows (`[type, data, extra]`) or one
 * at a chosen seq, for tests that state a log's exact shape — including shapes `LogBuilder` refuses
 * (a gap, a tool result without its call, a turn number out of order). `LogBuilder` stays the fluent
 * form that numbers turns and steps itself and is valid by construction.
 */
import type { LogEvent } from './log-builder.js';

/** What an event may carry beside its type and data; `time` defaults to the event's seq. */
export type LogEventExtra = { time?: number; surfaceOp?: LogEvent['surfaceOp']; ignorable?: true };

/** One row of a log table: the type, the data (default `{}`) and any extras. */
export type LogRow = readonly [type: string, data?: unknown, extra?: LogEventExtra];

/**
 * One event at `seq`; `data` may be anything, a hostile shape included. `E` is the event type the
 * test reads (`SessionEvent`, the demo's `WireEvent`): the event is built structurally and handed
 * over as that type, unchecked, the way a test fixture is.
 */
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- E names the event type the test reads; a fixture is handed over unchecked
export function logEvent<E = LogEvent>(seq: number, type: string, data: unknown = {}, extra: LogEventExtra = {}): E {
  const { time, ...rest } = extra;
  return { seq, type, time: time ?? seq, data, ...rest } as E;
}

/** The rows as events numbered from `options.from` (default 0); `options.time` gives each event's time (default its seq). */
export function logEvents<E = LogEvent>(rows: readonly LogRow[], options: { from?: number; time?: (seq: number) => number } = {}): E[] {
  const from = options.from ?? 0;
  return rows.map(([type, data, extra], index) => {
    const seq = from + index;
    return logEvent<E>(seq, type, data, { ...(options.time === undefined ? {} : { time: options.time(seq) }), ...extra });
  });
}
