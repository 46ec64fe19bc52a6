/**
 * The V5 fast path for core payloads: V4's for every type but `assistant/message`, whose content
 * may also hold reasoning blocks. Like V4's, it never accepts what the zod schemas reject (a
 * property test pins this); `false` means "ask the zod schema". Expects lossless JSON.
 */
import type { CoreEventType } from '../types.js';
import { isValidCorePayload as isValidV4CorePayload } from '../v4/is-valid-core-payload.js';

type Obj = Record<string, unknown>;

function isObject(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function keysWithin(value: Obj, allowed: ReadonlySet<string>): boolean {
  for (const key in value) if (!allowed.has(key)) return false;
  return true;
}

function isOrdinal(value: unknown): boolean {
  return Number.isSafeInteger(value) && (value as number) >= 1;
}

function isId(value: unknown): boolean {
  return typeof value === 'string' && value !== '';
}

const TEXT_KEYS: ReadonlySet<string> = new Set(['type', 'text']);
const CALL_KEYS: ReadonlySet<string> = new Set(['type', 'id', 'name', 'arguments']);
const REASONING_KEYS: ReadonlySet<string> = new Set(['type', 'text', 'providerData']);
const MESSAGE_KEYS: ReadonlySet<string> = new Set(['id', 'role', 'content']);
const ASSISTANT_KEYS: ReadonlySet<string> = new Set(['turn', 'step', 'message', 'usage']);

function isAssistantContent(value: unknown): boolean {
  if (!Array.isArray(value)) return false;
  for (const block of value) {
    if (!isObject(block)) return false;
    if (block.type === 'text') {
      if (typeof block.text !== 'string' || !keysWithin(block, TEXT_KEYS)) return false;
    } else if (block.type === 'tool-call') {
      if (!isId(block.id) || !isId(block.name) || typeof block.arguments !== 'string' || !keysWithin(block, CALL_KEYS)) return false;
    } else if (block.type === 'reasoning') {
      if (typeof block.text !== 'string' || !keysWithin(block, REASONING_KEYS)) return false;
      if ('providerData' in block && !isObject(block.providerData)) return false;
    } else return false;
  }
  return true;
}

function isAssistantPayload(data: unknown): boolean {
  if (!isObject(data) || !isOrdinal(data.turn) || !isOrdinal(data.step) || !keysWithin(data, ASSISTANT_KEYS)) return false;
  if ('usage' in data && !isObject(data.usage)) return false;
  const message = data.message;
  return isObject(message) && message.role === 'assistant' && isId(message.id) && isAssistantContent(message.content) && keysWithin(message, MESSAGE_KEYS);
}

/** `true` only if `data` is a valid V5 payload for core `type`; `false` means "ask the zod schema". */
export function isValidCorePayload(type: CoreEventType, data: unknown): boolean {
  return type === 'assistant/message' ? isAssistantPayload(data) : isValidV4CorePayload(type, data);
}
