/**
 * @module run-turn
 * One turn of SPEC §9 over a live session: `turn/start`, the claimed user messages, then steps —
 * a model request, its `assistant/message`, each tool call started and answered — until the model
 * stops calling tools, `maxSteps` is reached, the model fails or `signal` aborts; then `turn/end`.
 */
import type { TurnEndReason } from 'dsh-codec';
import type { Session } from 'dsh-session';
import { checkModelResponse } from './check-model-response.js';
import { checkpointWorkspace, type CheckpointStore } from './checkpoint-workspace.js';
import type { Tool } from './define-tool.js';
import { flushDurably } from './flush-durably.js';
import { cancelledBeforeStart, executeToolCall, noWorkspace, type CallOutcome } from './execute-tool-call.js';
import type { PendingInput } from './log-state.js';
import type { SessionHistory } from './session-history.js';
import type { Model, ModelDelta, ModelResponse } from './model.js';
import { toToolSpec } from './to-tool-spec.js';
import { assistantMessage, errorOf, resultMessage } from './turn-messages.js';

/** What a turn came to: its end reason, the final assistant text, and the inputs it claimed. */
export type TurnResult = {
  turn: number;
  reason: TurnEndReason;
  /** The text of the turn's last assistant message ('' when it had none). */
  text: string;
  /** True unless the turn `completed`. */
  isError: boolean;
  inputIds: string[];
  /** Seqs of the turn's `turn/start` and `turn/end`. */
  startSeq: number;
  endSeq: number;
};

/** Everything one turn needs, decided by the agent before it starts. */
export type TurnPlan = {
  session: Session;
  model: Model;
  system?: string;
  maxSteps: number;
  /** The tools available in this turn (the config's narrowing applied). */
  tools: readonly Tool[];
  /** The working directory of tool calls; absent, every call is refused `NO_WORKSPACE`. */
  cwd?: string;
  /** Where checkpoints of `cwd` go (SPEC §23); absent, none are taken. */
  checkpoints?: CheckpointStore;
  /** The turn number (the next after the log's last). */
  turn: number;
  /** The pending inputs this turn answers, in order. */
  claimed: readonly PendingInput[];
  /** The session's model-visible history, folded as it grows (each request reads the events since the last). */
  history: SessionHistory;
  signal: AbortSignal;
  /** Aborted when the agent closes: a flush waiting for storage to come back gives up (`AGENT_CLOSED`). */
  stop: AbortSignal;
  /** Streaming pieces of step `step`'s response (ephemeral). */
  onDelta: (step: number, delta: ModelDelta) => void;
};

/** Runs the turn to its end and returns what it came to; every event is appended to `plan.session`. */
export async function runTurn(plan: TurnPlan): Promise<TurnResult> {
  const { session, turn, claimed, signal, cwd } = plan;
  const byName = new Map(plan.tools.map((tool) => [tool.name, tool]));
  const specs = plan.tools.map(toToolSpec);

  const startSeq = session.append('turn/start', { turn }).seq;
  // SPEC §23: the files at turn start, and after every call that may have changed them.
  const checkpoint = (after: 'turn-start' | 'call', callId?: string): Promise<unknown> =>
    cwd === undefined || plan.checkpoints === undefined
      ? Promise.resolve()
      : checkpointWorkspace(session, plan.checkpoints, { after, cwd, ...(callId === undefined ? {} : { callId }) });
  await checkpoint('turn-start');
  for (const input of claimed) {
    session.append('user/message', { message: input.message, inputId: input.inputId });
  }
  let text = '';
  let step = 0;
  // A function, not the property: TypeScript would keep `signal.aborted` narrowed across awaits.
  const cancelled = () => signal.aborted;
  let reason: TurnEndReason | undefined;
  while (reason === undefined) {
    if (cancelled()) {
      reason = { kind: 'cancelled' };
      break;
    }
    if (step >= plan.maxSteps) {
      reason = { kind: 'max-steps' };
      break;
    }
    step += 1;
    session.append('step/start', { turn, step });
    // Durable before the request; while storage fails this waits (a cancel ends the wait, and the turn).
    await flushDurably(session, plan.stop, signal);
    let response: ModelResponse | undefined;
    if (!cancelled()) {
      try {
        const completed: unknown = await plan.model.complete({
          ...(plan.system === undefined ? {} : { system: plan.system }),
          messages: plan.history.messages(session),
          tools: specs,
          signal,
          onDelta: (delta) => {
            plan.onDelta(step, delta);
          },
        });
        // A custom Model's malformed response ends the turn typed, before anything is recorded of it.
        response = checkModelResponse(plan.model.name, completed);
      } catch (error) {
        if (!cancelled()) reason = { kind: 'error', error: errorOf(error) };
      }
    }
    if (response === undefined) {
      session.append('step/end', { turn, step });
      reason ??= { kind: 'cancelled' };
      break;
    }
    const message = assistantMessage(response, session.nextSeq);
    session.append('assistant/message', {
      turn,
      step,
      message,
      ...(response.usage === undefined ? {} : { usage: response.usage }),
    });
    text = response.text;
    const calls = message.content.filter((block) => block.type === 'tool-call');
    for (const call of calls) {
      const tool = byName.get(call.name);
      const effect = tool?.effect ?? 'unknown';
      session.append('tool/call', { turn, step, callId: call.id, name: call.name, arguments: call.arguments, effect });
      let outcome: CallOutcome;
      if (cancelled()) {
        outcome = cancelledBeforeStart();
      } else {
        await flushDurably(session, plan.stop, signal);
        outcome = cancelled()
          ? cancelledBeforeStart()
          : cwd === undefined && tool !== undefined
            ? noWorkspace(call.name)
            : await executeToolCall(tool, call, { cwd: cwd ?? '', signal, sessionId: session.id, callId: call.id, turn, step }, [
                ...byName.keys(),
              ]);
      }
      session.append('tool/result', {
        turn,
        step,
        message: resultMessage(call.id, outcome, session.nextSeq),
        ...(outcome.error === undefined ? {} : { error: outcome.error }),
      });
      // Whatever the outcome (it may have written before failing or being cancelled).
      if (effect !== 'read-only') await checkpoint('call', call.id);
    }
    session.append('step/end', { turn, step });
    if (calls.length === 0) reason = { kind: 'completed' };
  }
  const endSeq = session.append('turn/end', { turn, reason }).seq;
  await flushDurably(session, plan.stop);
  const result: TurnResult = {
    turn,
    reason,
    text,
    isError: reason.kind !== 'completed',
    inputIds: claimed.map((input) => input.inputId),
    startSeq,
    endSeq,
  };
  return result;
}
