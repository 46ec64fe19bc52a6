/**
 * Migration V0 → V1 (SPEC §7), pure: a synthesized header, messages with ids `legacy-<seq>` and
 * content blocks, turn-end reasons as objects.
 */
import type { V0Data, V0Event } from '../v0/schemas.js';
import type { V1Event, V1Header } from './schemas.js';

type Block = { type: 'text'; text: string } | { type: 'tool-call'; id: string; name: string; arguments: string };

/** A text block when `text` is non-empty, otherwise nothing. */
function textBlocks(text: string): Block[] {
  return text === '' ? [] : [{ type: 'text', text }];
}

function migrateEvent(event: V0Event): V1Event {
  const { seq, time } = event;
  const id = `legacy-${String(seq)}`;
  switch (event.type) {
    case 'user/message':
      return { seq, type: event.type, time, data: { message: { id, role: 'user', content: textBlocks(event.data.text) } } };
    case 'assistant/message': {
      const { turn, step, text, toolCalls } = event.data;
      // The text block (if any), then one tool-call block per call, built in one array.
      const content = textBlocks(text);
      for (const call of toolCalls) content.push({ type: 'tool-call', id: call.id, name: call.name, arguments: call.arguments });
      return { seq, type: event.type, time, data: { turn, step, message: { id, role: 'assistant', content } } };
    }
    case 'tool/result': {
      const { turn, step, callId, output, isError } = event.data;
      return {
        seq,
        type: event.type,
        time,
        data: { turn, step, message: { id, role: 'tool', callId, content: textBlocks(output), isError } },
      };
    }
    case 'turn/end': {
      const { turn, reason } = event.data satisfies V0Data<'turn/end'>;
      return { seq, type: event.type, time, data: { turn, reason: { kind: reason } } };
    }
    default:
      // turn/start, step/start, step/end and tool/call have the same payload in V1.
      return event;
  }
}

/**
 * A valid V0 log as V1. `sessionId` becomes the header's id (V0 names a session by its file);
 * `createdAt` is the first event's time, or 0 for an empty log.
 */
export function migrateV0ToV1(artifact: { events: readonly V0Event[] }, sessionId: string): { header: V1Header; events: V1Event[] } {
  const header: V1Header = { format: 'dsh-session', version: 1, id: sessionId, createdAt: artifact.events[0]?.time ?? 0 };
  return { header, events: artifact.events.map(migrateEvent) };
}
