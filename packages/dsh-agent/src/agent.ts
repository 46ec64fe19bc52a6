/**
 * @module agent
 * The `Agent` class: the loop of SPEC §9 over one live session. What a turn runs with lives in
 * `turn-settings.ts`, one turn's events in `run-turn.ts`, the per-input results in
 * `input-results.ts` and the between-turns operations in `between-turns-queue.ts`.
 */
import type { SessionConfig } from 'dsh-codec';
import type { Session } from 'dsh-session';
import { AgentError, agentClosed } from './agent-error.js';
import { maxStepsOf, type AgentOptions } from './agent-options.js';
import { BetweenTurnsQueue } from './between-turns-queue.js';
import { compactSession, type CompactionResult, type CompactOptions } from './compaction/compact-session.js';
import type { CheckpointStore } from './checkpoint-workspace.js';
import type { Tool } from './define-tool.js';
import { DeltaFanOut, type AgentDelta } from './delta-fan-out.js';
import { IdleWaiters } from './idle-waiters.js';
import { InputResults } from './input-results.js';
import { assertNoOpenTurn, nextTurnOf, type PendingInput } from './log-state.js';
import { pendingInputsRead, SessionHistory } from './session-history.js';
import type { Model } from './model.js';
import { runTurn, type TurnResult } from './run-turn.js';
import { queuedInput, type AgentInput } from './turn-messages.js';
import { TurnSettings } from './turn-settings.js';

type Active = { kind: 'turn' | 'operation'; turn?: number; controller: AbortController };

/**
 * The agent loop of SPEC §9 over one live `Session`: input is recorded as `input/queued`; while
 * input is pending and nothing else runs, a turn claims all of it and steps until the model stops
 * calling tools, `maxSteps` is reached, the model fails, or `cancel()` is called. Between turns it
 * runs queued operations (`compact`, `configure`, `betweenTurns`).
 */
export class Agent {
  readonly session: Session;
  readonly model: Model;
  readonly #settings: TurnSettings;
  readonly #maxSteps: number;
  readonly #checkpoints: CheckpointStore | undefined;
  readonly #deltas = new DeltaFanOut();
  readonly #pending: PendingInput[];
  /** The session's model-visible history, folded as it grows. */
  readonly #history = new SessionHistory();
  readonly #operations = new BetweenTurnsQueue();
  readonly #results = new InputResults();
  readonly #idleWaiters = new IdleWaiters();
  #active: Active | undefined;
  #draining = false;
  #scheduled = false;
  #closed = false;
  /** Aborted by `close()`: a flush waiting for storage to come back gives up. */
  readonly #stop = new AbortController();
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
    this.#settings = new TurnSettings(options);
    this.#maxSteps = maxStepsOf(options);
    this.#checkpoints = options.checkpoints;
    if (options.onDelta !== undefined) this.#deltas.subscribe(options.onDelta);
    assertNoOpenTurn(this.session);
    this.#pending = pendingInputsRead(this.session, this.#history);
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

  /**
   * True once the agent takes no more input: closed, or stopped by a failure its session cannot recover
   * from (a lost lease, a bug). A passing storage failure never stops it: its turn waits for storage.
   */
  get stopped(): boolean {
    return this.#closed || this.#failure !== undefined;
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
    return this.#deltas.subscribe(listener);
  }

  /** Queued input not yet claimed by a turn, in order (copies). */
  pendingInputs(): PendingInput[] {
    return this.#pending.map((input) => ({ ...input }));
  }

  /** The tools the model may call now: the agent's tools narrowed by the latest `session/config.tools`. */
  availableTools(): Tool[] {
    return this.#settings.availableTools(this.session);
  }

  /**
   * The directory tools work in: `session/config.cwd`, else the header's `cwd`, else the option;
   * undefined when none names one (the session has no workspace; its tool calls are refused).
   */
  cwd(): string | undefined {
    return this.#settings.cwd(this.session);
  }

  /**
   * The spec of the model that answers the next turn: the session's recorded `session/config.model`
   * when a `resolveModel` option can resolve it, else the agent's `model`.
   */
  modelName(): string {
    return this.#settings.modelName(this.session);
  }

  /** The system prompt the next request sends: the recorded one, else the `system` option, else the default. */
  systemPrompt(): string {
    return this.#settings.systemPrompt(this.session);
  }

  /**
   * Records the input as `input/queued` (synchronously) and starts a turn if none runs.
   * The input id defaults to `input-<seq>`; throws `AGENT_CLOSED` after `close()` or a failure.
   */
  enqueue(input: AgentInput): { inputId: string } {
    this.#assertOpen();
    const { message, inputId } = queuedInput(input, this.session.nextSeq);
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
    if (this.#pending.length > 0 || this.#operations.size > 0) this.#schedule();
  }

  /**
   * Resolves with the result of the turn that claims `inputId` (rejects if the agent closes first).
   * Refuses (`INVALID_OPTION`) an id that is neither pending nor claimed by this agent.
   */
  result(inputId: string): Promise<TurnResult> {
    const known = this.#results.known(inputId);
    if (known !== undefined) return known;
    if (!this.#pending.some((input) => input.inputId === inputId)) {
      return Promise.reject(
        new AgentError('INVALID_OPTION', `expected the id of input pending or claimed in this agent's lifetime, received ${inputId}`),
      );
    }
    return this.#results.expect(inputId, this.#closed || this.#failure !== undefined ? this.#closedError() : undefined);
  }

  /**
   * Resolves when no turn or operation runs and no input is pending, with the latest turn's result.
   * Rejects when the agent failed (its session lost its lease or refused an append); while storage
   * fails in a way that may pass, the running turn waits and so does this.
   */
  idle(): Promise<TurnResult | undefined> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    if (!this.#draining && !this.#scheduled) return Promise.resolve(this.#lastResult);
    return this.#idleWaiters.wait();
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
    const result = this.#operations.add(operation);
    this.#schedule();
    return result;
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
    return this.betweenTurns(async (signal) => {
      const model = await this.#settings.modelFor(this.session);
      return compactSession(this.session, { model, ...options, signal });
    });
  }

  /**
   * Stops accepting input, cancels the running turn and waits for the loop to stop. Pending input
   * stays in the log for the next lifecycle. Does not close the session.
   */
  async close(): Promise<void> {
    if (!this.#closed) {
      this.#closed = true;
      this.#stop.abort();
      this.cancel();
      this.#results.rejectAll(() => this.#closedError());
    }
    await this.idle().catch(() => undefined);
  }

  #assertOpen(): void {
    if (this.#closed || this.#failure !== undefined) throw this.#closedError();
  }

  #closedError(): AgentError {
    return agentClosed(this.session.id, this.#failure);
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
        const ran = await this.#operations.runNext(
          (controller) => (this.#active = { kind: 'operation', controller }),
          () => (this.#active = undefined),
        );
        if (ran) continue;
        if (this.#pending.length === 0 || this.#closed) break;
        await this.#runTurn();
      }
    } catch (error) {
      this.#failure = error instanceof Error ? error : new Error(String(error));
      this.#results.rejectAll(() => this.#closedError());
      this.#operations.failAll(() => this.#closedError());
    } finally {
      this.#draining = false;
      this.#active = undefined;
      this.#idleWaiters.release(this.#failure, this.#lastResult);
    }
  }

  async #runTurn(): Promise<void> {
    const claimed = this.#pending.splice(0);
    this.#results.claim(claimed);
    const turn = nextTurnOf(this.session);
    const controller = new AbortController();
    this.#active = { kind: 'turn', turn, controller };
    const model = await this.#settings.modelFor(this.session);
    const cwd = this.cwd();
    const result = await runTurn({
      session: this.session,
      model,
      system: this.systemPrompt(),
      maxSteps: this.#maxSteps,
      tools: this.availableTools(),
      ...(cwd === undefined ? {} : { cwd }),
      // A session whose latest config says `checkpoints: false` (SPEC §23, stored) takes none, store or not.
      ...(this.#checkpoints === undefined || this.session.config?.checkpoints === false ? {} : { checkpoints: this.#checkpoints }),
      turn,
      claimed,
      history: this.#history,
      signal: controller.signal,
      stop: this.#stop.signal,
      onDelta: (step, delta) => {
        this.#deltas.emit(turn, step, delta);
      },
    });
    this.#lastResult = result;
    this.#active = undefined;
    this.#results.settle(result);
  }
}
