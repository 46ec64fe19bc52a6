/**
 * V0 → V6 for events the decoder owns: fresh from `JSON.parse` and already valid under the frozen V0
 * validator. Each event keeps its envelope object and receives, built once, the payload the migration
 * steps give it (V0 → V1 rebuilds messages and turn-end reasons, V2 → V3 adds tool effects, result
 * errors and reason codes; the other steps keep events as they are). Equal, key order included, to
 * `migrateToCurrent` of the same log (a property test pins this); `migrateToCurrent` stays the pure
 * definition for everything else.
 */
import { migrateToCurrent } from './migrate.js';
import type { SessionEvent, SessionHeader } from './types.js';
import type { V0Event } from './v0/schemas.js';

type Block = { type: 'text'; text: string } | { type: 'tool-call'; id: string; name: string; arguments: string };

/** A text block when `text` is non-empty, otherwise nothing (as V0 → V1 writes it). */
function textBlocks(text: string): Block[] {
  return text === '' ? [] : [{ type: 'text', text }];
}

/** The V6 payload of a valid V0 event, or `undefined` when V0's payload is V6's (turn/start, step/start, step/end). */
function currentData(event: V0Event): unknown {
  const id = `legacy-${String(event.seq)}`;
  switch (event.type) {
    case 'user/message':
      return { message: { id, role: 'user', content: textBlocks(event.data.text) } };
    case 'assistant/message': {
      const { turn, step, text, toolCalls } = event.data;
      const content = textBlocks(text);
      for (const call of toolCalls) content.push({ type: 'tool-call', id: call.id, name: call.name, arguments: call.arguments });
      return { turn, step, message: { id, role: 'assistant', content } };
    }
    case 'tool/call': {
      const { turn, step, callId, name, arguments: args } = event.data;
      return { turn, step, callId, name, arguments: args, effect: 'unknown' };
    }
    case 'tool/result': {
      const { turn, step, callId, output, isError } = event.data;
      const message = { id, role: 'tool', callId, content: textBlocks(output), isError };
      return isError ? { turn, step, message, error: { name: 'ToolError', code: 'TOOL_FAILED' } } : { turn, step, message };
    }
    case 'turn/end': {
      const { turn, reason } = event.data;
      // V0 reasons carry no message: V2 → V3 gives an error reason the empty one and code UNKNOWN.
      if (reason === 'aborted') return { turn, reason: { kind: 'cancelled' } };
      if (reason === 'error') return { turn, reason: { kind: 'error', error: { message: '', code: 'UNKNOWN' } } };
      return { turn, reason: { kind: 'completed' } };
    }
    default:
      return undefined;
  }
}

/**
 * A valid V0 log the caller owns as V6, rewriting its events in place (their `data` only). Throws
 * `CodecError` `INVALID_HEADER` without `sessionId`, like `migrateToCurrent`.
 */
export function migrateOwnedV0(events: V0Event[], options: { sessionId?: string }): { header: SessionHeader; events: SessionEvent[] } {
  // The header, dated by the first event, through the migration steps themselves (before any rewrite).
  const { header } = migrateToCurrent({ events: events.slice(0, 1) }, 0, options);
  for (const event of events) {
    const data = currentData(event);
    if (data !== undefined) (event as { data: unknown }).data = data;
  }
  return { header, events };
}
