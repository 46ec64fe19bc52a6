/**
 * The streamed text of the step that is running, built from `event: delta` frames. It is shown
 * until the step's persisted `assistant/message` arrives (which replaces it) or the turn ends.
 */
import type { WireDelta, WireEvent } from './wire.js';

/** Text streamed so far for one step of one turn. */
export type StreamingText = { turn: number; step: number; text: string };

function turnStep(event: WireEvent): { turn: unknown; step: unknown } {
  const data = (event.data ?? {}) as { turn?: unknown; step?: unknown };
  return { turn: data.turn, step: data.step };
}

/**
 * Adds a delta's text: appended within the same step, a fresh text for a new step. A delta of a
 * step whose message is already among `events` (a late frame) changes nothing.
 */
export function withDelta(current: StreamingText | undefined, delta: WireDelta, events: readonly WireEvent[]): StreamingText | undefined {
  if (delta.text === undefined || delta.text === '') return current;
  if (current?.turn === delta.turn && current.step === delta.step) return { ...current, text: current.text + delta.text };
  const settled = events.some((event) => {
    const at = turnStep(event);
    return event.type === 'assistant/message' && at.turn === delta.turn && at.step === delta.step;
  });
  return settled ? current : { turn: delta.turn, step: delta.step, text: delta.text };
}

/** What is left streaming after `event` was appended: nothing once its step's message or its turn's end arrived. */
export function afterEvent(current: StreamingText | undefined, event: WireEvent): StreamingText | undefined {
  if (current === undefined) return undefined;
  const at = turnStep(event);
  if (at.turn !== current.turn) return current;
  if (event.type === 'turn/end') return undefined;
  if ((event.type === 'assistant/message' || event.type === 'step/end') && at.step === current.step) return undefined;
  return current;
}
