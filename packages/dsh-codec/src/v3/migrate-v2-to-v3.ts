/**
 * Migration V2 → V3 (SPEC §7), pure: `aborted` → `cancelled`; `error` reasons gain
 * `error: {message, code: "UNKNOWN"}`; error results gain `error: {name: "ToolError",
 * code: "TOOL_FAILED"}`; tool calls gain `effect: "unknown"`.
 */
import { headerAtVersion } from '../shared/header-at-version.js';
import type { V2Event, V2Header } from '../v2/schemas.js';
import type { V3CoreEvent } from './types.js';
import type { V3Header } from './schemas.js';

function migrateEvent(event: V2Event): V3CoreEvent {
  const { seq, time } = event;
  switch (event.type) {
    case 'turn/end': {
      const { turn, reason } = event.data;
      if (reason.kind === 'aborted') return { seq, type: event.type, time, data: { turn, reason: { kind: 'cancelled' } } };
      if (reason.kind === 'error') {
        // V1/V2 recorded an optional free-text message and no code; nothing is invented beyond the code.
        return {
          seq,
          type: event.type,
          time,
          data: { turn, reason: { kind: 'error', error: { message: reason.message ?? '', code: 'UNKNOWN' } } },
        };
      }
      return { seq, type: event.type, time, data: { turn, reason: { kind: 'completed' } } };
    }
    case 'tool/call': {
      const { turn, step, callId, name, arguments: args } = event.data;
      return { seq, type: event.type, time, data: { turn, step, callId, name, arguments: args, effect: 'unknown' } };
    }
    case 'tool/result': {
      if (!event.data.message.isError) return event;
      const { turn, step, message } = event.data;
      return { seq, type: event.type, time, data: { turn, step, message, error: { name: 'ToolError', code: 'TOOL_FAILED' } } };
    }
    default:
      return event;
  }
}

/** A valid V2 log as V3; lineage is kept as it was. */
export function migrateV2ToV3(artifact: { header: V2Header; events: readonly V2Event[] }): { header: V3Header; events: V3CoreEvent[] } {
  const header: V3Header = headerAtVersion(artifact.header, 3);
  return { header, events: artifact.events.map(migrateEvent) };
}
