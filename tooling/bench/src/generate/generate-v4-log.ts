import { CURRENT_FORMAT_VERSION, type ContentBlock, type JsonObject, type SessionEvent, type SessionHeader } from 'dsh-codec';
import { generateConversation, type Conversation } from './generate-conversation.js';

/** A V4 log in memory, plus the conversation it was written from (for peers' formats). */
export interface GeneratedV4Log {
  readonly header: SessionHeader;
  readonly events: SessionEvent[];
  readonly conversation: Conversation;
}

/** Records per V4 turn outside its steps: input/queued, turn/start, user/message, turn/end. */
export const V4_TURN_OVERHEAD = 4;
/** Standalone V4 events: session/config first, session/title after turn 1. */
const V4_STANDALONE = 2;

/**
 * A realistic, valid V4 log of exactly `events` events (≥ 22): a coding agent's turns with queued
 * input, multi-step tool use, occasional tool errors, a config and a title. Deterministic per seed.
 * Its header says the current version (V5 reads V4's events unchanged), so it measures what dsh writes.
 */
export function generateV4Log(options: { events: number; seed?: number; id?: string }): GeneratedV4Log {
  const { events: count, seed = 1, id = 'bench-v4' } = options;
  const conversation = generateConversation({ seed, budget: count - V4_STANDALONE, turnOverhead: V4_TURN_OVERHEAD });
  const header: SessionHeader = {
    format: 'dsh-session',
    version: CURRENT_FORMAT_VERSION,
    id,
    createdAt: conversation.startTime,
    cwd: conversation.cwd,
    inheritedEventCount: 0,
  };
  return { header, events: v4EventsOf(conversation), conversation };
}

/** The V4 events of a conversation, in log order. */
export function v4EventsOf(conversation: Conversation): SessionEvent[] {
  const events: SessionEvent[] = [];
  let time = conversation.startTime;
  const push = (type: string, data: JsonObject, advanceMs: number): void => {
    time += advanceMs;
    events.push({ seq: events.length, type, time, data });
  };
  push(
    'session/config',
    { cwd: conversation.cwd, model: conversation.model, tools: ['read_file', 'grep', 'list_dir', 'edit_file', 'run_tests', 'bash'] },
    0,
  );
  for (const [turnIndex, turnSpec] of conversation.turns.entries()) {
    const turn = turnIndex + 1;
    const inputId = `input-${turn}`;
    const message = { id: `user-${turn}`, role: 'user', content: [{ type: 'text', text: turnSpec.userText }] };
    push('input/queued', { inputId, message }, 20_000);
    push('turn/start', { turn }, 3);
    push('user/message', { message, inputId }, 1);
    for (const [stepIndex, stepSpec] of turnSpec.steps.entries()) {
      const step = stepIndex + 1;
      push('step/start', { turn, step }, 1);
      const content: ContentBlock[] = stepSpec.text === '' ? [] : [{ type: 'text', text: stepSpec.text }];
      for (const call of stepSpec.calls) {
        content.push({ type: 'tool-call', id: call.id, name: call.name, arguments: call.arguments });
      }
      const assistant = { id: `assistant-${turn}-${step}`, role: 'assistant', content };
      push('assistant/message', { turn, step, message: assistant, usage: { ...stepSpec.usage } }, 1_500);
      for (const call of stepSpec.calls) {
        push('tool/call', { turn, step, callId: call.id, name: call.name, arguments: call.arguments, effect: call.effect }, 2);
        const result: JsonObject = {
          turn,
          step,
          message: {
            id: `result-${call.id}`,
            role: 'tool',
            callId: call.id,
            content: [{ type: 'text', text: call.output }],
            isError: call.isError,
          },
        };
        if (call.isError) result.error = { name: 'ToolError', code: 'TOOL_FAILED' };
        push('tool/result', result, 120);
      }
      push('step/end', { turn, step }, 1);
    }
    push('turn/end', { turn, reason: { kind: 'completed' } }, 1);
    if (turn === 1) push('session/title', { title: conversation.title }, 5);
  }
  return events;
}

/** The JSONL lines of a V4 log (header first), written the way dsh-codec writes them. */
export function v4Jsonl(log: { header: SessionHeader; events: readonly SessionEvent[] }): string {
  const { header } = log;
  let text = `${JSON.stringify({ format: header.format, version: header.version, id: header.id, createdAt: header.createdAt, cwd: header.cwd, inheritedEventCount: header.inheritedEventCount })}\n`;
  for (const event of log.events) {
    text += `{"seq":${event.seq},"type":${JSON.stringify(event.type)},"time":${event.time},"data":${JSON.stringify(event.data)}}\n`;
  }
  return text;
}
