/**
 * A hand-written fast path for the V4 core payload shapes, for the open path of every session.
 * It must never accept what the zod schemas in `schemas.ts` reject (a property test pins this);
 * when it says no, the zod schemas decide and explain. Expects lossless JSON (checked before).
 */
import {
  isContentOf,
  isId,
  isObject,
  isOrdinal,
  isTextBlock,
  isToolCallBlock,
  keysWithin,
  type JsonRecord,
} from '../shared/payload-guards.js';
import type { V4CoreEventType as CoreEventType } from './types.js';

const isV4Block = (block: JsonRecord): boolean => isTextBlock(block) || isToolCallBlock(block);

function isContent(value: unknown): boolean {
  return isContentOf(value, isV4Block);
}

const MESSAGE_KEYS: ReadonlySet<string> = new Set(['id', 'role', 'content']);
const RESULT_MESSAGE_KEYS: ReadonlySet<string> = new Set(['id', 'role', 'callId', 'content', 'isError']);

function isMessage(value: unknown, role: 'user' | 'assistant'): boolean {
  return isObject(value) && value.role === role && isId(value.id) && isContent(value.content) && keysWithin(value, MESSAGE_KEYS);
}

function isResultMessage(value: unknown): boolean {
  return (
    isObject(value) &&
    value.role === 'tool' &&
    isId(value.id) &&
    isId(value.callId) &&
    typeof value.isError === 'boolean' &&
    isContent(value.content) &&
    keysWithin(value, RESULT_MESSAGE_KEYS)
  );
}

const KIND_ONLY: ReadonlySet<string> = new Set(['completed', 'cancelled', 'max-steps', 'interrupted', 'forked']);
const KIND_KEYS: ReadonlySet<string> = new Set(['kind']);
const ERROR_REASON_KEYS: ReadonlySet<string> = new Set(['kind', 'error']);
const REASON_ERROR_KEYS: ReadonlySet<string> = new Set(['message', 'code']);
const NAME_CODE_KEYS: ReadonlySet<string> = new Set(['name', 'code']);
const EFFECTS: ReadonlySet<unknown> = new Set(['read-only', 'idempotent', 'side-effect', 'unknown']);

function isReason(value: unknown): boolean {
  if (!isObject(value)) return false;
  if (typeof value.kind === 'string' && KIND_ONLY.has(value.kind)) return keysWithin(value, KIND_KEYS);
  if (value.kind !== 'error') return false;
  const error = value.error;
  return (
    isObject(error) &&
    typeof error.message === 'string' &&
    isId(error.code) &&
    keysWithin(error, REASON_ERROR_KEYS) &&
    keysWithin(value, ERROR_REASON_KEYS)
  );
}

const keys = (...names: string[]): ReadonlySet<string> => new Set(names);
const SEED_KEYS = keys('inherited');
const TITLE_KEYS = keys('title');
const CONFIG_KEYS = keys('tools', 'cwd', 'model');
const QUEUED_KEYS = keys('inputId', 'message');
const TURN_KEYS = keys('turn');
const USER_KEYS = keys('message', 'inputId');
const STEP_KEYS = keys('turn', 'step');
const ASSISTANT_KEYS = keys('turn', 'step', 'message', 'usage');
const CALL_EVENT_KEYS = keys('turn', 'step', 'callId', 'name', 'arguments', 'effect');
const RESULT_KEYS = keys('turn', 'step', 'message', 'error');
const TURN_END_KEYS = keys('turn', 'reason');

/** `true` only if `data` is a valid payload for core `type`; `false` means "ask the zod schema". */
export function isValidCorePayload(type: CoreEventType, data: unknown): boolean {
  if (!isObject(data)) return false;
  switch (type) {
    case 'session/end-seed':
      return (!('inherited' in data) || data.inherited === true) && keysWithin(data, SEED_KEYS);
    case 'session/title':
      return typeof data.title === 'string' && keysWithin(data, TITLE_KEYS);
    case 'session/config': {
      const { tools, cwd, model } = data;
      if (tools !== undefined && !(Array.isArray(tools) && tools.every(isId))) return false;
      return (
        (cwd === undefined || typeof cwd === 'string') &&
        (model === undefined || typeof model === 'string') &&
        keysWithin(data, CONFIG_KEYS)
      );
    }
    case 'input/queued':
      return isId(data.inputId) && isMessage(data.message, 'user') && keysWithin(data, QUEUED_KEYS);
    case 'turn/start':
      return isOrdinal(data.turn) && keysWithin(data, TURN_KEYS);
    case 'user/message':
      return isMessage(data.message, 'user') && (!('inputId' in data) || isId(data.inputId)) && keysWithin(data, USER_KEYS);
    case 'step/start':
    case 'step/end':
      return isOrdinal(data.turn) && isOrdinal(data.step) && keysWithin(data, STEP_KEYS);
    case 'assistant/message':
      return (
        isOrdinal(data.turn) &&
        isOrdinal(data.step) &&
        isMessage(data.message, 'assistant') &&
        (!('usage' in data) || isObject(data.usage)) &&
        keysWithin(data, ASSISTANT_KEYS)
      );
    case 'tool/call':
      return (
        isOrdinal(data.turn) &&
        isOrdinal(data.step) &&
        isId(data.callId) &&
        isId(data.name) &&
        typeof data.arguments === 'string' &&
        EFFECTS.has(data.effect) &&
        keysWithin(data, CALL_EVENT_KEYS)
      );
    case 'tool/result': {
      if (!isOrdinal(data.turn) || !isOrdinal(data.step) || !isResultMessage(data.message) || !keysWithin(data, RESULT_KEYS)) return false;
      if (!('error' in data)) return true;
      const error = data.error;
      return isObject(error) && isId(error.name) && isId(error.code) && keysWithin(error, NAME_CODE_KEYS);
    }
    case 'turn/end':
      return isOrdinal(data.turn) && isReason(data.reason) && keysWithin(data, TURN_END_KEYS);
  }
}
