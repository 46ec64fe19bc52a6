/**
 * @module The turn and step framing an `EventWriter` (`write-events.ts`) emits into its state: an
 * event appended at the writer's clock, a turn started, the open step ended, a turn ended with the
 * source's outcome, and the prompts held back until the calls they would split are answered.
 */
import type { JsonValue, SessionEvent, SurfaceOp, TurnEndReason } from 'dsh-codec';
import type { Prompt, WriterState } from './event-writer-state.js';

/** The event types a compaction can replace (messages and results). */
const SURFACE = new Set(['user/message', 'assistant/message', 'tool/result']);

/** Appends an event of `type` at the writer's clock and returns its seq. */
export function emitEvent(state: WriterState, type: string, data: JsonValue, extra?: { surfaceOp?: SurfaceOp; ignorable?: true }): number {
  const seq = state.events.length;
  const event: SessionEvent =
    extra === undefined ? { seq, type, time: state.lastTime, data } : { seq, type, time: state.lastTime, data, ...extra };
  state.events.push(event);
  if (SURFACE.has(type)) state.surfaceSeqs.push(seq);
  return seq;
}

/** Opens the next turn. */
export function startTurn(state: WriterState): void {
  state.turn++;
  state.turnOpen = true;
  state.stepsInTurn = 0;
  state.lastStepHadCalls = false;
  state.outcome = undefined;
  emitEvent(state, 'turn/start', { turn: state.turn });
}

/** Ends the open step, if any (its unanswered calls stay unanswered). */
export function endStep(state: WriterState): void {
  const step = state.step;
  if (step === undefined) return;
  emitEvent(state, 'step/end', { turn: state.turn, step: step.step });
  state.step = undefined;
}

/** Ends the open step and the turn, with the source's outcome as its reason (completed when it gave none). */
export function endTurn(state: WriterState): void {
  endStep(state);
  flushDeferred(state);
  const outcome = state.outcome;
  const reason: TurnEndReason =
    outcome === undefined
      ? { kind: 'completed' }
      : outcome.kind === 'cancelled'
        ? { kind: 'cancelled' }
        : { kind: 'error', error: { message: outcome.message, code: 'SOURCE_ERROR' } };
  emitEvent(state, 'turn/end', { turn: state.turn, reason });
  state.turnOpen = false;
}

/** Writes the prompts held back, in order. */
export function flushDeferred(state: WriterState): void {
  for (const prompt of state.deferred.splice(0)) userMessage(state, prompt);
}

/** Writes a prompt as a `user/message`. */
export function userMessage(state: WriterState, prompt: Prompt): void {
  emitEvent(state, 'user/message', { message: { id: prompt.id, role: 'user', content: prompt.content } });
}
