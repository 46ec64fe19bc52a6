/**
 * Builds realistic V4 session event logs for tests: turns, steps, tool calls with effects, results,
 * closed failed steps, queued input, titles and config, plugin brackets and surface replacements.
 * Structural types only (tooling does not depend on dsh-codec); the events are valid `SessionEvent`s.
 */

/** Lossless JSON (structurally the codec's `JsonValue`). */
export type LogJson = null | boolean | number | string | LogJson[] | { [key: string]: LogJson };

/** One event as the builder makes it (structurally the codec's `SessionEvent`). */
export type LogEvent = {
  seq: number;
  type: string;
  time: number;
  data: LogJson;
  surfaceOp?: { op: 'replace'; start: number; end: number };
  ignorable?: true;
};

/** What a tool declares about re-running it. */
export type LogToolEffect = 'read-only' | 'idempotent' | 'side-effect' | 'unknown';

/** A call declared by an assistant message. */
export type LogToolCall = { id: string; name: string; arguments?: string };

/** The reasons a live loop may end a turn with (`interrupted`/`forked` belong to the closer). */
export type LogTurnEnd =
  { kind: 'completed' } | { kind: 'cancelled' } | { kind: 'error'; error: { message: string; code: string } } | { kind: 'max-steps' };

const SURFACE = new Set(['user/message', 'assistant/message', 'tool/result']);

/**
 * A fluent builder that numbers seqs, turns and steps itself and refuses out-of-order calls with a
 * plain Error (so a test's log is valid by construction). `time` starts at `start` and grows by `tick`.
 */
export class LogBuilder {
  readonly events: LogEvent[];
  readonly #start: number;
  readonly #tick: number;
  #lastTurn = 0;
  #turn: number | undefined;
  #lastStep = 0;
  #step: number | undefined;
  #ids = 0;

  constructor(options: { start?: number; tick?: number; events?: readonly LogEvent[] } = {}) {
    this.#start = options.start ?? 1_767_225_600_000;
    this.#tick = options.tick ?? 1_000;
    this.events = [...(options.events ?? [])];
    this.#ids = this.events.length;
    for (const event of this.events) this.#track(event);
  }

  /** Continues an existing log (a fork child, a repaired session): numbering picks up where it ends. */
  static continue(events: readonly LogEvent[], options: { tick?: number } = {}): LogBuilder {
    const last = events.at(-1);
    return new LogBuilder({ ...options, events, ...(last === undefined ? {} : { start: last.time }) });
  }

  /** Seq of the last event (-1 when empty). */
  get lastSeq(): number {
    return this.events.length - 1;
  }

  /** The open turn's number, if any. */
  get openTurn(): number | undefined {
    return this.#turn;
  }

  /** The open step's number, if any. */
  get openStep(): number | undefined {
    return this.#step;
  }

  /** Appends any event (the escape hatch); numbering state follows core events. */
  push(type: string, data: LogJson, extra: { surfaceOp?: LogEvent['surfaceOp']; ignorable?: true } = {}): this {
    const seq = this.events.length;
    const previous = this.events.at(-1);
    const time = previous === undefined ? this.#start : previous.time + this.#tick;
    const event: LogEvent = { seq, type, time, data };
    if (extra.surfaceOp !== undefined) event.surfaceOp = extra.surfaceOp;
    if (extra.ignorable === true) event.ignorable = true;
    this.events.push(event);
    this.#track(event);
    return this;
  }

  /** A plain `session/end-seed` (what a Session constructor writes). */
  endSeed(): this {
    return this.push('session/end-seed', {});
  }

  title(title: string): this {
    return this.push('session/title', { title });
  }

  config(config: { tools?: string[]; cwd?: string; model?: string }): this {
    return this.push('session/config', config);
  }

  /** Queues user input between turns; returns the builder, the input id is `inputId` or `in-<seq>`. */
  queue(text: string, inputId = `in-${this.events.length}`): this {
    return this.push('input/queued', { inputId, message: this.#userMessage(text) });
  }

  turnStart(): this {
    if (this.#turn !== undefined) throw new Error(`LogBuilder: turn ${this.#turn} is still open`);
    return this.push('turn/start', { turn: this.#lastTurn + 1 });
  }

  /** A user message inside the open turn (claiming `inputId` when given). */
  user(text: string, options: { inputId?: string } = {}): this {
    this.#requireTurn();
    const data: { [key: string]: LogJson } = { message: this.#userMessage(text) };
    if (options.inputId !== undefined) data.inputId = options.inputId;
    return this.push('user/message', data);
  }

  stepStart(): this {
    const turn = this.#requireTurn();
    if (this.#step !== undefined) throw new Error(`LogBuilder: step ${this.#step} is still open`);
    return this.push('step/start', { turn, step: this.#lastStep + 1 });
  }

  /** The step's assistant message: optional text, then one tool-call block per call, in order. */
  assistant(text: string | undefined, calls: readonly LogToolCall[] = []): this {
    const { turn, step } = this.#requireStep();
    const content: LogJson[] = [];
    if (text !== undefined && text !== '') content.push({ type: 'text', text });
    for (const call of calls) content.push({ type: 'tool-call', id: call.id, name: call.name, arguments: call.arguments ?? '{}' });
    return this.push('assistant/message', { turn, step, message: { id: `msg-${this.#nextId()}`, role: 'assistant', content } });
  }

  /** `tool/call` for a declared call: "may have started" from here on. */
  toolCall(callId: string, options: { name?: string; arguments?: string; effect?: LogToolEffect } = {}): this {
    const { turn, step } = this.#requireStep();
    const declared = this.#declared(callId);
    return this.push('tool/call', {
      turn,
      step,
      callId,
      name: options.name ?? declared?.name ?? 'tool',
      arguments: options.arguments ?? declared?.arguments ?? '{}',
      effect: options.effect ?? 'unknown',
    });
  }

  /** A real `tool/result` for a started call; `isError` adds `{ name: "ToolError", code: "TOOL_FAILED" }`. */
  toolResult(callId: string, text: string, options: { isError?: boolean } = {}): this {
    const { turn, step } = this.#requireStep();
    const data: { [key: string]: LogJson } = {
      turn,
      step,
      message: { id: `res-${this.#nextId()}`, role: 'tool', callId, content: [{ type: 'text', text }], isError: options.isError === true },
    };
    if (options.isError === true) data.error = { name: 'ToolError', code: 'TOOL_FAILED' };
    return this.push('tool/result', data);
  }

  stepEnd(): this {
    const { turn, step } = this.#requireStep();
    return this.push('step/end', { turn, step });
  }

  turnEnd(reason: LogTurnEnd = { kind: 'completed' }): this {
    const turn = this.#requireTurn();
    if (this.#step !== undefined) throw new Error(`LogBuilder: step ${this.#step} is still open`);
    return this.push('turn/end', { turn, reason: reason as LogJson });
  }

  /** An ignorable plugin event (e.g. `compaction/start`); core never closes plugin brackets. */
  plugin(type: string, data: LogJson = {}): this {
    return this.push(type, data, { ignorable: true });
  }

  /** Between turns: a user/message replacing the surface nodes `start..end` (a compaction's summary). */
  replaceSurface(start: number, end: number, text: string): this {
    if (this.#turn !== undefined) throw new Error('LogBuilder: surface replacements stand between turns');
    return this.push('user/message', { message: this.#userMessage(text) }, { surfaceOp: { op: 'replace', start, end } });
  }

  /** A manual compaction: plugin bracket around a replacement of every surface event so far. */
  compaction(summary: string): this {
    const surface = this.events.filter((event) => SURFACE.has(event.type));
    const first = surface[0];
    const last = surface.at(-1);
    this.plugin('compaction/start', {});
    if (first !== undefined && last !== undefined) this.replaceSurface(first.seq, last.seq, summary);
    return this.plugin('compaction/end', {});
  }

  /**
   * A whole turn: the user's text, then steps; each call is `declared` (no tool/call), `started`
   * (tool/call, no result), `answered` or `failed` (a result). `end: 'open'` leaves the turn (and a
   * step with `open: true`) open, as a crash would.
   */
  turn(spec: {
    user?: string;
    inputId?: string;
    steps?: readonly {
      text?: string;
      calls?: readonly { name?: string; effect?: LogToolEffect; run?: 'declared' | 'started' | 'answered' | 'failed' }[];
      open?: boolean;
    }[];
    end?: LogTurnEnd | 'open';
  }): this {
    this.turnStart();
    this.user(spec.user ?? 'hello', spec.inputId === undefined ? {} : { inputId: spec.inputId });
    for (const step of spec.steps ?? []) {
      this.stepStart();
      const calls = (step.calls ?? []).map((call) => ({ ...call, id: `call-${this.#nextId()}`, name: call.name ?? 'tool' }));
      this.assistant(
        step.text ?? 'working',
        calls.map(({ id, name }) => ({ id, name, arguments: '{}' })),
      );
      for (const call of calls) {
        const run = call.run ?? 'answered';
        if (run === 'declared') continue;
        this.toolCall(call.id, { effect: call.effect ?? 'unknown' });
        if (run === 'answered') this.toolResult(call.id, `output of ${call.name}`);
        if (run === 'failed') this.toolResult(call.id, `${call.name} failed`, { isError: true });
      }
      if (step.open === true) return this;
      this.stepEnd();
    }
    if (spec.end === 'open') return this;
    return this.turnEnd(spec.end ?? { kind: 'completed' });
  }

  #userMessage(text: string): LogJson {
    return { id: `user-${this.#nextId()}`, role: 'user', content: [{ type: 'text', text }] };
  }

  #nextId(): number {
    this.#ids += 1;
    return this.#ids;
  }

  #requireTurn(): number {
    if (this.#turn === undefined) throw new Error('LogBuilder: no turn is open');
    return this.#turn;
  }

  #requireStep(): { turn: number; step: number } {
    const turn = this.#requireTurn();
    if (this.#step === undefined) throw new Error('LogBuilder: no step is open');
    return { turn, step: this.#step };
  }

  #declared(callId: string): LogToolCall | undefined {
    for (let index = this.events.length - 1; index >= 0; index -= 1) {
      const event = this.events[index];
      if (event?.type !== 'assistant/message') continue;
      const content = (event.data as { message: { content: LogJson[] } }).message.content as {
        type: string;
        id?: string;
        name?: string;
        arguments?: string;
      }[];
      const block = content.find((candidate) => candidate.type === 'tool-call' && candidate.id === callId);
      if (block !== undefined) return { id: callId, name: block.name ?? 'tool', arguments: block.arguments ?? '{}' };
    }
    return undefined;
  }

  #track(event: LogEvent): void {
    const data = event.data as { turn?: number; step?: number };
    switch (event.type) {
      case 'turn/start':
        this.#turn = data.turn;
        this.#lastTurn = data.turn ?? this.#lastTurn;
        this.#lastStep = 0;
        this.#step = undefined;
        break;
      case 'turn/end':
        this.#turn = undefined;
        this.#step = undefined;
        break;
      case 'step/start':
        this.#step = data.step;
        this.#lastStep = data.step ?? this.#lastStep;
        break;
      case 'step/end':
        this.#step = undefined;
        break;
      default:
        break;
    }
  }
}
