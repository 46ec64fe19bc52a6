/**
 * How V1 events map to the V0 relationship rules: calls are declared by the tool-call blocks of
 * the step's assistant message. Frozen with V1; V2 reuses it.
 */
import type { RelationshipView } from '../v0/relationship-checker.js';
import type { V1Data } from './schemas.js';

/** The relationship view of a shape-valid V1 event (unknown types stand anywhere). */
export function v1RelationshipView(type: string, data: unknown): RelationshipView {
  switch (type) {
    case 'turn/start':
    case 'turn/end':
      return { kind: type, turn: (data as V1Data<'turn/start'>).turn };
    case 'step/start':
    case 'step/end': {
      const { turn, step } = data as V1Data<'step/start'>;
      return { kind: type, turn, step };
    }
    case 'user/message':
      return { kind: 'in-turn' };
    case 'assistant/message': {
      const { turn, step, message } = data as V1Data<'assistant/message'>;
      const calls: { id: string; path: (string | number)[] }[] = [];
      message.content.forEach((block, index) => {
        if (block.type === 'tool-call') calls.push({ id: block.id, path: ['data', 'message', 'content', index, 'id'] });
      });
      return { kind: 'assistant', turn, step, calls };
    }
    case 'tool/call': {
      const { turn, step, callId } = data as V1Data<'tool/call'>;
      return { kind: 'call', turn, step, callId, path: ['data', 'callId'] };
    }
    case 'tool/result': {
      const { turn, step, message } = data as V1Data<'tool/result'>;
      return { kind: 'result', turn, step, callId: message.callId, path: ['data', 'message', 'callId'] };
    }
    default:
      return { kind: 'anywhere' };
  }
}
