/**
 * The codec tests' logs on the log-builder family: `CodecLog` numbers `@dsh/test-utils`' rows
 * (`logRow`: turn and step numbers stated by the test, so a log may be one the codec must refuse, e.g.
 * a first `turnStart(2)`) into events at `time = 1000 + seq`, and adds what only the codec can make:
 * the canonical closers built from its own synthetic results (test-utils does not depend on dsh-codec).
 * Plus the headers of the current version. Tool calls are `echo` with arguments `{}` (the family's).
 */
import { logEvent, logRow, type LogJsonRow } from '@dsh/test-utils';
import {
  syntheticResultError,
  syntheticResultMessage,
  type CloseCause,
  type JsonValue,
  type SessionEvent,
  type SessionHeader,
  type SurfaceOp,
  type ToolEffect,
} from 'dsh-codec';

export type Extra = { surfaceOp?: SurfaceOp; ignorable?: true };

/** A growing log: each row appended with the next seq and `time = 1000 + seq`. */
export class CodecLog {
  readonly events: SessionEvent[] = [];

  constructor(events: readonly SessionEvent[] = []) {
    this.events.push(...events);
  }

  get nextSeq(): number {
    return this.events.length;
  }

  /** Appends `rows` (the family's `logRow`s, or any `[type, data, extra]`). */
  rows(...rows: readonly LogJsonRow[]): this {
    for (const [type, data, extra] of rows) {
      const seq = this.events.length;
      this.events.push(logEvent<SessionEvent>(seq, type, data, { ...extra, time: 1000 + seq }));
    }
    return this;
  }

  add(type: string, data: JsonValue, extra: Extra = {}): this {
    return this.rows([type, data, extra]);
  }

  title(title: string): this {
    return this.rows(logRow.title(title));
  }

  queued(inputId: string, text: string): this {
    return this.rows(logRow.queued(inputId, text));
  }

  turnStart(turn: number): this {
    return this.rows(logRow.turnStart(turn));
  }

  /** A user message with the id `u-<seq>`. */
  user(text: string, inputId?: string): this {
    return this.rows(logRow.user(`u-${String(this.events.length)}`, text, inputId));
  }

  stepStart(turn: number, step: number): this {
    return this.rows(logRow.stepStart(turn, step));
  }

  assistant(turn: number, step: number, text: string, calls: readonly string[] = []): this {
    return this.rows(logRow.assistant(turn, step, text, calls));
  }

  call(turn: number, step: number, callId: string, effect: ToolEffect = 'read-only'): this {
    return this.rows(logRow.call(turn, step, callId, effect));
  }

  result(turn: number, step: number, callId: string, output = `output of ${callId}`, isError = false): this {
    return this.rows(logRow.result(turn, step, callId, output, isError));
  }

  /** A canonical synthetic result closing `callId` for `cause`. */
  synthetic(cause: CloseCause, turn: number, step: number, callId: string, started: boolean, effect?: ToolEffect): this {
    const seq = this.events.length;
    const message = syntheticResultMessage(cause, effect === undefined ? { callId, started } : { callId, started, effect }, seq);
    return this.add('tool/result', { turn, step, message, error: syntheticResultError(started) });
  }

  stepEnd(turn: number, step: number): this {
    return this.rows(logRow.stepEnd(turn, step));
  }

  turnEnd(turn: number, kind: 'completed' | 'cancelled' | 'max-steps' | 'interrupted' | 'forked' = 'completed'): this {
    return this.rows(logRow.turnEnd(turn, { kind }));
  }

  endSeed(inherited = false): this {
    return this.add('session/end-seed', inherited ? { inherited: true } : {});
  }
}

/** A root V7 header. */
export function rootHeader(id = 'session-1'): SessionHeader {
  return { format: 'dsh-session', version: 7, id, createdAt: 1000, inheritedEventCount: 0 };
}

/** A fork child's V7 header for a cut at `forkCut`. */
export function childHeader(id: string, parentSession: string, forkCut: number): SessionHeader {
  return { format: 'dsh-session', version: 7, id, createdAt: 2000, parentSession, forkCut, inheritedEventCount: forkCut + 1 };
}

/** One complete turn with one step, one tool call and its result. */
export function completedTurn(log: CodecLog, turn: number, callId = `c${String(turn)}`): CodecLog {
  return log
    .turnStart(turn)
    .user(`question ${String(turn)}`)
    .stepStart(turn, 1)
    .assistant(turn, 1, 'let me look', [callId])
    .call(turn, 1, callId)
    .result(turn, 1, callId)
    .stepEnd(turn, 1)
    .stepStart(turn, 2)
    .assistant(turn, 2, `answer ${String(turn)}`)
    .stepEnd(turn, 2)
    .turnEnd(turn);
}
