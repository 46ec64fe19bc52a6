/**
 * The V5 fast path for core payloads: V4's for every type but `assistant/message`, whose content
 * may also hold reasoning blocks. Like V4's, it never accepts what the zod schemas reject (a
 * property test pins this); `false` means "ask the zod schema". Expects lossless JSON.
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
import type { V5CoreEventType as CoreEventType } from './types.js';
import { isValidCorePayload as isValidV4CorePayload } from '../v4/is-valid-core-payload.js';

const REASONING_KEYS: ReadonlySet<string> = new Set(['type', 'text', 'providerData']);
const MESSAGE_KEYS: ReadonlySet<string> = new Set(['id', 'role', 'content']);
const ASSISTANT_KEYS: ReadonlySet<string> = new Set(['turn', 'step', 'message', 'usage']);

function isReasoningBlock(block: JsonRecord): boolean {
  return (
    block.type === 'reasoning' &&
    typeof block.text === 'string' &&
    keysWithin(block, REASONING_KEYS) &&
    (!('providerData' in block) || isObject(block.providerData))
  );
}

const isV5AssistantBlock = (block: JsonRecord): boolean => isTextBlock(block) || isToolCallBlock(block) || isReasoningBlock(block);

function isAssistantContent(value: unknown): boolean {
  return isContentOf(value, isV5AssistantBlock);
}

function isAssistantPayload(data: unknown): boolean {
  if (!isObject(data) || !isOrdinal(data.turn) || !isOrdinal(data.step) || !keysWithin(data, ASSISTANT_KEYS)) return false;
  if ('usage' in data && !isObject(data.usage)) return false;
  const message = data.message;
  return (
    isObject(message) &&
    message.role === 'assistant' &&
    isId(message.id) &&
    isAssistantContent(message.content) &&
    keysWithin(message, MESSAGE_KEYS)
  );
}

/** `true` only if `data` is a valid V5 payload for core `type`; `false` means "ask the zod schema". */
export function isValidCorePayload(type: CoreEventType, data: unknown): boolean {
  return type === 'assistant/message' ? isAssistantPayload(data) : isValidV4CorePayload(type, data);
}
