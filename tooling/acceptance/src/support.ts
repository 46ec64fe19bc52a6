/**
 * Helpers of the acceptance suite, written from SPEC.md alone: the log-builder family's rows
 * (`logRow`, `completedTurnRows` from `@dsh/test-utils`) appended through a `Session` or numbered into
 * raw events, headers of each format version, and error capture.
 */
import { logEvents, type LogJsonRow, type LogRow } from '@dsh/test-utils';
import { CURRENT_FORMAT_VERSION, type JsonValue, type SessionEvent, type SessionHeader } from 'dsh-codec';
import type { Session } from 'dsh-session';

/** Numbers rows into raw events from `start`, time `1_000 + 10 * seq` unless `time` says otherwise. */
export function toEvents(rows: readonly LogRow[], start = 0, time: (seq: number) => number = (seq) => 1_000 + 10 * seq): SessionEvent[] {
  return logEvents<SessionEvent>(rows, { from: start, time });
}

/** Appends every row through `session.append` and returns the appended events. */
export function appendAll(session: Session, rows: readonly LogJsonRow[]): SessionEvent[] {
  return rows.map(([type, data, extra]) => {
    const options = {
      ...(extra?.surfaceOp === undefined ? {} : { surfaceOp: extra.surfaceOp }),
      ...(extra?.ignorable === undefined ? {} : { ignorable: extra.ignorable }),
    };
    return session.append(type, data, options);
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
