/**
 * The V0 validator, frozen: no header, flat messages, every result answers a `tool/call`.
 */
import { headerIssue, type Issue } from '../shared/issue.js';
import { isValidV0Payload } from './is-valid-v0-payload.js';
import type { RelationshipView } from './relationship-checker.js';
import { v0DataSchemas, type V0Data } from './schemas.js';
import { validateLegacyEvents } from './validate-events.js';

/** Views and paths shared by every event that needs them (never mutated: issues copy their paths). */
const CALL_ID_PATH = ['data', 'callId'];
const IN_TURN: RelationshipView = { kind: 'in-turn' };

function view(type: string, data: unknown): RelationshipView {
  switch (type) {
    case 'turn/start':
    case 'turn/end':
      return { kind: type, turn: (data as V0Data<'turn/start'>).turn };
    case 'step/start':
    case 'step/end': {
      const { turn, step } = data as V0Data<'step/start'>;
      return { kind: type, turn, step };
    }
    case 'assistant/message': {
      const { turn, step, toolCalls } = data as V0Data<'assistant/message'>;
      return {
        kind: 'assistant',
        turn,
        step,
        calls: toolCalls.map((call, index) => ({ id: call.id, path: ['data', 'toolCalls', index, 'id'] })),
      };
    }
    case 'tool/call': {
      const { turn, step, callId } = data as V0Data<'tool/call'>;
      return { kind: 'call', turn, step, callId, path: CALL_ID_PATH };
    }
    case 'tool/result': {
      const { turn, step, callId } = data as V0Data<'tool/result'>;
      return { kind: 'result', turn, step, callId, path: CALL_ID_PATH };
    }
    default:
      return IN_TURN;
  }
}

/**
 * Every issue of a V0 log (shapes and relationships); `[]` when valid. V0 logs have no header.
 * `parsed`: the events come straight from `JSON.parse` (see `validateLegacyEvents`).
 */
export function validateV0(artifact: { header?: unknown; events: readonly unknown[] }, parsed = false): Issue[] {
  const issues: Issue[] = [];
  if (artifact.header !== undefined)
    issues.push(headerIssue([], 'header: a V0 log has no header (its session id comes from the file name)'));
  for (const issue of validateLegacyEvents(
    artifact.events,
    { version: 0, schemas: v0DataSchemas, view, fast: isValidV0Payload },
    undefined,
    parsed,
  ))
    issues.push(issue);
  return issues;
}
