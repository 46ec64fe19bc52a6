import { isAbsolute, resolve } from 'node:path';
import type { SessionConfig, UserMessage } from 'dsh-codec';
import type { Session } from 'dsh-session';
import { AgentError } from './agent-error.js';
import { compactSession, type CompactionResult, type CompactOptions } from './compaction/compact-session.js';
import type { Tool } from './define-tool.js';
import { defer, type Deferred } from './deferred.js';
import { nextTurnNumber, openTurn, pendingInputsOf, type PendingInput } from './log-state.js';
import type { Model, ModelDelta } from './model.js';
import { runTurn, type TurnResult } from './run-turn.js';

/** Options of `new Agent()`. Only `session` and `model` are required. */
export type AgentOptions = {
  session: Session;
  model: Model;
  /** Every tool the host offers; the latest `session/config.tools` narrows it (availability). */
  tools?: readonly Tool[];
  /** The system prompt of every model request. */
  system?: string;
  /** Model requests per turn before it ends with `max-steps` (default 25). */
  maxSteps?: number;
  /** Working directory when neither `session/config.cwd` nor the header names one (default `process.cwd()`). */
  cwd?: string;
  /** Streaming text and reasoning for a live UI; never persisted (same as `subscribeDeltas`). */
  onDelta?: (delta: AgentDelta) => void;
  /** Start turns for input rebuilt from the log right away (default true). */
  autoStart?: boolean;
};

/**
 * A piece of the response streaming in step `step` of turn `turn`: `text` and `reasoning` add to
 * what came before in that step. Ephemeral: the complete `assistant/message` is what the log keeps.
 */
export type AgentDelta = { turn: number; step: number; text?: string; reasoning?: string };

export type { TurnResult } from './run-turn.js';

/** Input for `enqueue`: text, a complete user message, or text with a caller-chosen input id. */
export type AgentInput = string | UserMessage | { text: string; inputId?: string };

type Operation = { run: () => Promise<void>; fail: (error: unknown) => void };
type Active = { kind: 'turn' | 'operation'; turn?: number; controller: AbortController };

const DEFAULT_MAX_STEPS = 25;
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The agent loop of SPEC §9 over one live `Session`: input is recorded as `input/queued`; while
 * input is pending and nothing else runs, a turn claims all of it and steps until the model stops
 * calling tools, `maxSteps` is reached, the model fails, or `cancel()` is called. Between turns it
 * runs queued operations (`compact`, `configure`, `betweenTurns`).
 */
export class Agent {
  readonly session: Session;
  readonly model: Model;
  readonly #tools: ReadonlyMap<string, Tool>;
  readonly #system: string | undefined;
  readonly #maxSteps: number;
  readonly #cwd: string | undefined;
  readonly #deltaListeners = new Set<(delta: AgentDelta) => void>();
  readonly #pending: PendingInput[];
  readonly #operations: Operation[] = [];
  readonly #results = new Map<string, Deferred<TurnResult>>();
  #idleWaiters: Deferred<TurnResult | undefined>[] = [];
  #active: Active | undefined;
  #draining = false;
  #scheduled = false;
  #closed = false;
  #failure: Error | undefined;
  #lastResult: TurnResult | undefined;

  /**
   * Binds the loop to `session`, rebuilding pending input from `input/queued` events at or after
   * its `inheritedEventCount`. Refuses (`INVALID_OPTION`) a log that ends inside an open turn
   * (open it through `SessionStore.open`, which repairs it) and invalid or duplicate tool names.
   */
  constructor(options: AgentOptions) {
    this.session = options.session;
    this.model = options.model;
    const tools = new Map<string, Tool>();
    for (const tool of options.tools ?? []) {
      if (!TOOL_NAME.test(tool.name)) {
        throw new AgentError('INVALID_OPTION', `expected a tool name matching ${TOOL_NAME.source}, received ${JSON.stringify(tool.name)}`);
      }
      if (tools.has(tool.name)) throw new AgentError('INVALID_OPTION', `expected unique tool names, received ${tool.name} twice`);
      tools.set(tool.name, tool);
    }
    this.#tools = tools;
    this.#system = options.system;
    const maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS;
    if (!Number.isInteger(maxSteps) || maxSteps < 1) {
      throw new AgentError('INVALID_OPTION', `expected maxSteps to be an integer ≥ 1, received ${String(maxSteps)}`);
    }
    this.#maxSteps = maxSteps;
    this.#cwd = options.cwd;
    if (options.onDelta !== undefined) this.#deltaListeners.add(options.onDelta);
    const open = openTurn(this.session.events);
    if (open !== undefined) {
      throw new AgentError(
        'INVALID_OPTION',
        `session ${this.session.id} ends inside open turn ${open}; open it through SessionStore.open, which repairs it`,
      );
    }
    this.#pending = pendingInputsOf(this.session.events, this.session.inheritedEventCount);
    if (options.autoStart !== false) this.start();
  }

  /** True while a turn or a between-turns operation runs. */
  get running(): boolean {
    return this.#active !== undefined;
  }

  /** The number of the turn in progress, if one is. */
  get currentTurn(): number | undefined {
    return this.#active?.turn;
  }

  /** The result of the latest turn this agent ran. */
  get lastResult(): TurnResult | undefined {
    return this.#lastResult;
  }

  /**
   * Calls `listener` with each streaming delta of every model request from now on (never
   * persisted); returns the unsubscribe function. A listener that throws is ignored.
   */
  subscribeDeltas(listener: (delta: AgentDelta) => void): () => void {
    this.#deltaListeners.add(listener);
    return () => {
      this.#deltaListeners.delete(listener);
    };
  }

  /** Queued input not yet claimed by a turn, in order (copies). */
  pendingInputs(): PendingInput[] {
    return this.#pending.map((input) => ({ ...input }));
  }

  /** The tools the model may call now: the agent's tools narrowed by the latest `session/config.tools`. */
  availableTools(): Tool[] {
    const listed = this.session.config?.tools;
    const all = [...this.#tools.values()];
    return listed === undefined ? all : all.filter((tool) => listed.includes(tool.name));
  }

  /** The directory tools work in: `session/config.cwd`, else the header's `cwd`, else the option, else `process.cwd()`. */
  cwd(): string {
    const configured = this.session.config?.cwd ?? this.session.header.cwd ?? this.#cwd ?? process.cwd();
    return isAbsolute(configured) ? configured : resolve(configured);
  }

  /**
   * Records the input as `input/queued` (synchronously) and starts a turn if none runs.
   * The input id defaults to `input-<seq>`; throws `AGENT_CLOSED` after `close()` or a failure.
   */
  enqueue(input: AgentInput): { inputId: string } {
    this.#assertOpen();
    const seq = this.session.events.length;
    const message: UserMessage =
      typeof input === 'string'
        ? { id: `user-${seq}`, role: 'user', content: [{ type: 'text', text: input }] }
        : 'role' in input
          ? input
          : { id: `user-${seq}`, role: 'user', content: [{ type: 'text', text: input.text }] };
    const inputId = (typeof input === 'object' && !('role' in input) ? input.inputId : undefined) ?? `input-${seq}`;
    if (this.#pending.some((pending) => pending.inputId === inputId)) {
      throw new AgentError('INVALID_OPTION', `expected a new input id, received ${inputId}, which is already queued`);
    }
    const event = this.session.append('input/queued', { inputId, message });
    this.#pending.push({ seq: event.seq, inputId, message });
    this.#schedule();
    return { inputId };
  }

  /** Starts turns for pending input (needed only after `autoStart: false`); a no-op when none is pending. */
  start(): void {
    if (this.#pending.length > 0 || this.#operations.length > 0) this.#schedule();
  }

  /**
   * Resolves with the result of the turn that claims `inputId` (rejects if the agent closes first).
   * Refuses (`INVALID_OPTION`) an id that is neither pending nor claimed by this agent.
   */
  result(inputId: string): Promise<TurnResult> {
    const known = this.#results.get(inputId);
    if (known !== undefined) return known.promise;
    if (!this.#pending.some((input) => input.inputId === inputId)) {
      return Promise.reject(
        new AgentError('INVALID_OPTION', `expected the id of input pending or claimed in this agent's lifetime, received ${inputId}`),
      );
    }
    const deferred = defer<TurnResult>();
    this.#results.set(inputId, deferred);
    if (this.#closed || this.#failure !== undefined) deferred.reject(this.#closedError());
    return deferred.promise;
  }

  /**
   * Resolves when no turn or operation runs and no input is pending, with the latest turn's result.
   * Rejects when the agent failed (its session could not append or flush).
   */
  idle(): Promise<TurnResult | undefined> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    if (!this.#draining && !this.#scheduled) {
      return Promise.resolve(this.#lastResult);
    }
    const waiter = defer<TurnResult | undefined>();
    this.#idleWaiters.push(waiter);
    return waiter.promise;
  }

  /**
   * Cancels the running turn (or compaction): the model request and running tool bodies get an
   * aborted signal; calls that never started get results saying so; the turn ends `cancelled`.
   * Pending input stays queued. Returns false when nothing was running.
   */
  cancel(): boolean {
    if (this.#active === undefined || this.#active.controller.signal.aborted) return false;
    this.#active.controller.abort();
    return true;
  }

  /**
   * Runs `operation` between turns (after the running turn, before the next one) with exclusive
   * use of the session; resolves with its value. Use it to append standalone events such as
   * `session/title` while a live agent owns the session.
   */
  betweenTurns<T>(operation: (signal: AbortSignal) => T | Promise<T>): Promise<T> {
    this.#assertOpen();
    const deferred = defer<T>();
    this.#operations.push({
      run: async () => {
        const controller = new AbortController();
        this.#active = { kind: 'operation', controller };
        try {
          deferred.resolve(await operation(controller.signal));
        } catch (error) {
          deferred.reject(error);
        } finally {
          this.#active = undefined;
        }
      },
      fail: deferred.reject,
    });
    this.#schedule();
    return deferred.promise;
  }

  /** Records a standalone `session/config` between turns; from the next turn on, it is in force. */
  configure(config: SessionConfig): Promise<void> {
    return this.betweenTurns(() => {
      this.session.append('session/config', config);
      return this.session.flush();
    });
  }

  /**
   * Manual compaction between turns (the `/compact` command): summarizes the model history with
   * this agent's model (or `options.summarize`) and replaces it; see `compactSession`.
   */
  compact(options: Omit<CompactOptions, 'model' | 'signal'> = {}): Promise<CompactionResult> {
    return this.betweenTurns((signal) => compactSession(this.session, { model: this.model, ...options, signal }));
  }

  /**
   * Stops accepting input, cancels the running turn and waits for the loop to stop. Pending input
   * stays in the log for the next lifecycle. Does not close the session.
   */
  async close(): Promise<void> {
    if (!this.#closed) {
      this.#closed = true;
      this.cancel();
      for (const deferred of this.#results.values()) deferred.reject(this.#closedError());
    }
    await this.idle().catch(() => undefined);
  }

  #emitDelta(turn: number, step: number, delta: ModelDelta): void {
    if (this.#deltaListeners.size === 0) return;
    const event: AgentDelta = { turn, step };
    if (delta.text !== undefined && delta.text !== '') event.text = delta.text;
    if (delta.reasoning !== undefined && delta.reasoning !== '') event.reasoning = delta.reasoning;
    if (event.text === undefined && event.reasoning === undefined) return;
    for (const listener of this.#deltaListeners) {
      try {
        listener(event);
      } catch {
        // A UI listener must never break the turn it watches.
      }
    }
  }

  #assertOpen(): void {
    if (this.#closed || this.#failure !== undefined) throw this.#closedError();
  }

  #closedError(): AgentError {
    return new AgentError(
      'AGENT_CLOSED',
      this.#failure === undefined
        ? `the agent of session ${this.session.id} is closed`
        : `the agent of session ${this.session.id} stopped after its session failed`,
      this.#failure === undefined ? {} : { cause: this.#failure },
    );
  }

  /** Drains on a microtask, so input enqueued in the same tick is claimed by one turn. */
  #schedule(): void {
    if (this.#scheduled || this.#draining) return;
    this.#scheduled = true;
    queueMicrotask(() => {
      this.#scheduled = false;
      this.#drain();
    });
  }

  #drain(): void {
    if (this.#draining || this.#failure !== undefined) return;
    this.#draining = true;
    void this.#loop();
  }

  async #loop(): Promise<void> {
    try {
      for (;;) {
        const operation = this.#operations.shift();
        if (operation !== undefined) {
          await operation.run();
          continue;
        }
        if (this.#pending.length === 0 || this.#closed) break;
        await this.#runTurn();
      }
    } catch (error) {
      this.#failure = error instanceof Error ? error : new Error(String(error));
      for (const deferred of this.#results.values()) deferred.reject(this.#closedError());
      for (const operation of this.#operations.splice(0)) operation.fail(this.#closedError());
    } finally {
      this.#draining = false;
      this.#active = undefined;
      const waiters = this.#idleWaiters;
      this.#idleWaiters = [];
      for (const waiter of waiters) {
        if (this.#failure === undefined) waiter.resolve(this.#lastResult);
        else waiter.reject(this.#failure);
      }
    }
  }

  async #runTurn(): Promise<void> {
    const claimed = this.#pending.splice(0);
    for (const input of claimed) if (!this.#results.has(input.inputId)) this.#results.set(input.inputId, defer<TurnResult>());
    const turn = nextTurnNumber(this.session.events);
    const controller = new AbortController();
    this.#active = { kind: 'turn', turn, controller };
    const result = await runTurn({
      session: this.session,
      model: this.model,
      ...(this.#system === undefined ? {} : { system: this.#system }),
      maxSteps: this.#maxSteps,
      tools: this.availableTools(),
      cwd: this.cwd(),
      turn,
      claimed,
      signal: controller.signal,
      onDelta: (step, delta) => {
        this.#emitDelta(turn, step, delta);
      },
    });
    this.#lastResult = result;
    this.#active = undefined;
    for (const inputId of result.inputIds) this.#results.get(inputId)?.resolve(result);
  }
}
