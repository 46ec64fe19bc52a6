/**
 * Test helpers that build V6 logs event by event (seq and time filled in), so tests state only
 * what matters to them. The codec's own builder, deliberately separate from `@dsh/test-utils`'s
 * `LogBuilder` (which every other package uses): the validators' tests need logs the codec must
 * refuse (turn and step numbers given explicitly, e.g. a first `turnStart(2)`) and the canonical
 * closers built from the codec's own synthetic results, while test-utils' builder is valid by
 * construction and does not depend on dsh-codec.
 */
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

/** A growing V6 log: `add` appends with the next seq and `time = 1000 + seq`. */
export class LogBuilder {
  readonly events: SessionEvent[] = [];

  constructor(events: readonly SessionEvent[] = []) {
    this.events.push(...events);
  }

  get nextSeq(): number {
    return this.events.length;
  }

  add(type: string, data: JsonValue, extra: Extra = {}): this {
    const seq = this.events.length;
    this.events.push({ seq, type, time: 1000 + seq, data, ...extra });
    return this;
  }

  title(title: string): this {
    return this.add('session/title', { title });
  }

  queued(inputId: string, text: string): this {
    return this.add('input/queued', { inputId, message: userMessage(`m-${inputId}`, text) });
  }

  turnStart(turn: number): this {
    return this.add('turn/start', { turn });
  }

  user(text: string, inputId?: string): this {
    const seq = this.events.length;
    return this.add(
      'user/message',
      inputId === undefined
        ? { message: userMessage(`u-${String(seq)}`, text) }
        : { message: userMessage(`u-${String(seq)}`, text), inputId },
    );
  }

  stepStart(turn: number, step: number): this {
    return this.add('step/start', { turn, step });
  }

  assistant(turn: number, step: number, text: string, calls: readonly string[] = []): this {
    const seq = this.events.length;
    const content: JsonValue[] = text === '' ? [] : [{ type: 'text', text }];
    for (const id of calls) content.push({ type: 'tool-call', id, name: 'read', arguments: `{"id":"${id}"}` });
    return this.add('assistant/message', { turn, step, message: { id: `a-${String(seq)}`, role: 'assistant', content } });
  }

  call(turn: number, step: number, callId: string, effect: ToolEffect = 'read-only'): this {
    return this.add('tool/call', { turn, step, callId, name: 'read', arguments: `{"id":"${callId}"}`, effect });
  }

  result(turn: number, step: number, callId: string, output = `output of ${callId}`, isError = false): this {
    const seq = this.events.length;
    return this.add('tool/result', {
      turn,
      step,
      message: { id: `r-${String(seq)}`, role: 'tool', callId, content: [{ type: 'text', text: output }], isError },
    });
  }

  /** A canonical synthetic result closing `callId` for `cause`. */
  synthetic(cause: CloseCause, turn: number, step: number, callId: string, started: boolean, effect?: ToolEffect): this {
    const seq = this.events.length;
    const message = syntheticResultMessage(cause, effect === undefined ? { callId, started } : { callId, started, effect }, seq);
    return this.add('tool/result', { turn, step, message, error: syntheticResultError(started) });
  }

  stepEnd(turn: number, step: number): this {
    return this.add('step/end', { turn, step });
  }

  turnEnd(turn: number, kind: 'completed' | 'cancelled' | 'max-steps' | 'interrupted' | 'forked' = 'completed'): this {
    return this.add('turn/end', { turn, reason: { kind } });
  }

  endSeed(inherited = false): this {
    return this.add('session/end-seed', inherited ? { inherited: true } : {});
  }
}

export function userMessage(id: string, text: string): { id: string; role: 'user'; content: { type: 'text'; text: string }[] } {
  return { id, role: 'user', content: [{ type: 'text', text }] };
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
export function completedTurn(log: LogBuilder, turn: number, callId = `c${String(turn)}`): LogBuilder {
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
