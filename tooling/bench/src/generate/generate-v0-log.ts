import { generateConversation, type Conversation } from './generate-conversation.js';

/** A V0 event: no header exists in V0, and messages are flat (SPEC §7). */
export interface V0Event {
  readonly seq: number;
  readonly type: string;
  readonly time: number;
  readonly data: Record<string, unknown>;
}

/** Records per V0 turn outside its steps: turn/start, user/message, turn/end. */
export const V0_TURN_OVERHEAD = 3;

/**
 * A realistic, valid V0 log of exactly `events` events (≥ 20): the same kind of conversation as
 * `generateV4Log`, in the oldest format (no header, flat text and `toolCalls`, string reasons).
 */
export function generateV0Log(options: { events: number; seed?: number }): { events: V0Event[]; conversation: Conversation } {
  const { events: count, seed = 1 } = options;
  const conversation = generateConversation({ seed, budget: count, turnOverhead: V0_TURN_OVERHEAD });
  return { events: v0EventsOf(conversation), conversation };
}

/** The V0 events of a conversation, in log order. */
export function v0EventsOf(conversation: Conversation): V0Event[] {
  const events: V0Event[] = [];
  let time = conversation.startTime;
  const push = (type: string, data: Record<string, unknown>, advanceMs: number): void => {
    time += advanceMs;
    events.push({ seq: events.length, type, time, data });
  };
  for (const [turnIndex, turnSpec] of conversation.turns.entries()) {
    const turn = turnIndex + 1;
    push('turn/start', { turn }, 20_000);
    push('user/message', { text: turnSpec.userText }, 1);
    for (const [stepIndex, stepSpec] of turnSpec.steps.entries()) {
      const step = stepIndex + 1;
      push('step/start', { turn, step }, 1);
      const toolCalls = stepSpec.calls.map((call) => ({ id: call.id, name: call.name, arguments: call.arguments }));
      push('assistant/message', { turn, step, text: stepSpec.text, toolCalls }, 1_500);
      for (const call of stepSpec.calls) {
        push('tool/call', { turn, step, callId: call.id, name: call.name, arguments: call.arguments }, 2);
        push('tool/result', { turn, step, callId: call.id, output: call.output, isError: call.isError }, 120);
      }
      push('step/end', { turn, step }, 1);
    }
    push('turn/end', { turn, reason: 'completed' }, 1);
  }
  return events;
}

/** The JSONL text of a V0 log: one event per line, no header. */
export function v0Jsonl(events: readonly V0Event[]): string {
  let text = '';
  for (const event of events) text += `${JSON.stringify(event)}\n`;
  return text;
}
