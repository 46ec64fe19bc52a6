/**
 * Helpers of the acceptance suite, written from SPEC.md alone: event specs (type + data + options)
 * that can be appended through a `Session` or numbered into raw V4 events, and error capture.
 */
import { CURRENT_FORMAT_VERSION, type JsonValue, type SessionEvent, type SessionHeader, type SurfaceOp } from 'dsh-codec';
import type { Session } from 'dsh-session';

/** One event before it gets a seq and a time. */
export type Spec = { type: string; data: JsonValue; surfaceOp?: SurfaceOp; ignorable?: true };

export const userMessage = (id: string, text: string) => ({ id, role: 'user', content: [{ type: 'text', text }] });

/** Event specs for every core type (SPEC §3.3); tool calls get name `echo` and arguments `{}`. */
export const ev = {
  title: (title: string): Spec => ({ type: 'session/title', data: { title } }),
  config: (config: { tools?: string[]; cwd?: string; model?: string }): Spec => ({ type: 'session/config', data: config }),
  queued: (inputId: string, text: string): Spec => ({
    type: 'input/queued',
    data: { inputId, message: userMessage(`m-${inputId}`, text) },
  }),
  turnStart: (turn: number): Spec => ({ type: 'turn/start', data: { turn } }),
  user: (id: string, text: string, inputId?: string): Spec => ({
    type: 'user/message',
    data: inputId === undefined ? { message: userMessage(id, text) } : { message: userMessage(id, text), inputId },
  }),
  replaceUser: (id: string, text: string, start: number, end: number): Spec => ({
    type: 'user/message',
    data: { message: userMessage(id, text) },
    surfaceOp: { op: 'replace', start, end },
  }),
  stepStart: (turn: number, step: number): Spec => ({ type: 'step/start', data: { turn, step } }),
  assistant: (turn: number, step: number, text: string, callIds: string[] = []): Spec => ({
    type: 'assistant/message',
    data: {
      turn,
      step,
      message: {
        id: `a-${turn}-${step}`,
        role: 'assistant',
        content: [
          ...(text === '' ? [] : [{ type: 'text', text }]),
          ...callIds.map((id) => ({ type: 'tool-call', id, name: 'echo', arguments: '{}' })),
        ],
      },
    },
  }),
  call: (turn: number, step: number, callId: string, effect = 'read-only'): Spec => ({
    type: 'tool/call',
    data: { turn, step, callId, name: 'echo', arguments: '{}', effect },
  }),
  result: (turn: number, step: number, callId: string, text = 'ok', isError = false): Spec => ({
    type: 'tool/result',
    data: {
      turn,
      step,
      message: { id: `r-${callId}`, role: 'tool', callId, content: [{ type: 'text', text }], isError },
      ...(isError ? { error: { name: 'ToolError', code: 'TOOL_FAILED' } } : {}),
    },
  }),
  stepEnd: (turn: number, step: number): Spec => ({ type: 'step/end', data: { turn, step } }),
  turnEnd: (turn: number, reason: JsonValue = { kind: 'completed' }): Spec => ({ type: 'turn/end', data: { turn, reason } }),
  plugin: (type: string, data: JsonValue = {}): Spec => ({ type, data, ignorable: true }),
};

/** A complete turn: user message, one step answering `callIds` with results, a text step, `turn/end`. */
export function completedTurn(turn: number, callIds: string[] = []): Spec[] {
  const specs: Spec[] = [ev.turnStart(turn), ev.user(`u-${turn}`, `question ${turn}`), ev.stepStart(turn, 1)];
  specs.push(ev.assistant(turn, 1, callIds.length === 0 ? 'answer' : 'calling', callIds));
  if (callIds.length === 0) return [...specs, ev.stepEnd(turn, 1), ev.turnEnd(turn)];
  for (const id of callIds) specs.push(ev.call(turn, 1, id), ev.result(turn, 1, id));
  specs.push(ev.stepEnd(turn, 1), ev.stepStart(turn, 2), ev.assistant(turn, 2, 'done'), ev.stepEnd(turn, 2), ev.turnEnd(turn));
  return specs;
}

/** Numbers specs into raw events from `start`, time `1_000 + 10 * seq` unless `time` says otherwise. */
export function toEvents(specs: readonly Spec[], start = 0, time: (seq: number) => number = (seq) => 1_000 + 10 * seq): SessionEvent[] {
  return specs.map((spec, index) => {
    const seq = start + index;
    const event: { -readonly [K in keyof SessionEvent]: SessionEvent[K] } = { seq, type: spec.type, time: time(seq), data: spec.data };
    if (spec.surfaceOp !== undefined) event.surfaceOp = spec.surfaceOp;
    if (spec.ignorable !== undefined) event.ignorable = spec.ignorable;
    return event;
  });
}

/** Appends every spec through `session.append` and returns the appended events. */
export function appendAll(session: Session, specs: readonly Spec[]): SessionEvent[] {
  return specs.map((spec) => {
    const options = {
      ...(spec.surfaceOp === undefined ? {} : { surfaceOp: spec.surfaceOp }),
      ...(spec.ignorable === undefined ? {} : { ignorable: spec.ignorable }),
    };
    return session.append(spec.type, spec.data, options);
  });
}

/** A V-n header as SPEC §7 shapes it (V3/V4: with `inheritedEventCount`). */
export function headerOf(version: 1 | 2 | 3 | 4 | 5 | 6 | 7, id = 'acc', extra: Record<string, JsonValue> = {}): Record<string, JsonValue> {
  const base: Record<string, JsonValue> = { format: 'dsh-session', version, id, createdAt: 1_000 };
  if (version >= 2) base.inheritedEventCount = 0;
  return { ...base, ...extra };
}

/** A V4 header: what the previous release wrote (still read, migrated to the current version). */
export function v4Header(id = 'acc', extra: Partial<Omit<SessionHeader, 'version'>> = {}): Omit<SessionHeader, 'version'> & { version: 4 } {
  return { format: 'dsh-session', version: 4, id, createdAt: 1_000, inheritedEventCount: 0, ...extra };
}

/** A header of the current format version (what this release writes). */
export function currentHeader(id = 'acc', extra: Partial<SessionHeader> = {}): SessionHeader {
  return { format: 'dsh-session', version: CURRENT_FORMAT_VERSION, id, createdAt: 1_000, inheritedEventCount: 0, ...extra };
}

/** JSONL text of a header (omitted for V0) and events, every line '\n'-terminated. */
export function jsonl(header: unknown, events: readonly unknown[]): string {
  const lines = header === undefined ? [] : [JSON.stringify(header)];
  for (const event of events) lines.push(JSON.stringify(event));
  return lines.map((line) => `${line}\n`).join('');
}

/** The error a promise (or function) rejects with; fails when it does not reject. */
export async function rejection(action: Promise<unknown> | (() => unknown)): Promise<Error & { code?: string }> {
  try {
    await (typeof action === 'function' ? action() : action);
  } catch (error) {
    return error as Error & { code?: string };
  }
  throw new Error('expected a rejection, but it resolved');
}

/** The error a synchronous call throws; fails when it returns. */
export function thrown(action: () => unknown): Error & { code?: string } {
  try {
    action();
  } catch (error) {
    return error as Error & { code?: string };
  }
  throw new Error('expected a throw, but it returned');
}

/** True when `text` contains `value` as a whole number (not a digit of a larger one). */
export function mentionsNumber(text: string, value: number): boolean {
  return new RegExp(`(^|[^0-9.])${String(value)}([^0-9]|$)`).test(text);
}

/** Deeply freezes a value, so a pure function that mutates its input throws. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
