/**
 * A fast path for the frozen V0 payload schemas (`schemas.ts`): plain checks that accept exactly
 * what those zod schemas accept for lossless JSON data (the envelope check has already refused
 * anything else). `false` sends the payload to zod, which then reports the issues; property tests
 * pin that this never accepts what zod rejects.
 */

type Checker = (data: Record<string, unknown>) => boolean;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Exactly these keys (no more, none missing); values are checked by the caller. */
function hasExactly(data: Record<string, unknown>, keys: readonly string[]): boolean {
  let count = 0;
  for (const key in data) {
    if (!Object.hasOwn(data, key)) continue;
    if (!keys.includes(key)) return false;
    count += 1;
  }
  return count === keys.length;
}

/** zod `z.int().min(1)`: a safe integer ≥ 1. */
function isOrdinal(value: unknown): boolean {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 1;
}

function isNonEmptyString(value: unknown): boolean {
  return typeof value === 'string' && value.length > 0;
}

const TURN_STEP = ['turn', 'step'] as const;
const REASONS: ReadonlySet<unknown> = new Set(['completed', 'aborted', 'error']);

function isToolCall(value: unknown): boolean {
  return (
    isRecord(value) &&
    hasExactly(value, ['id', 'name', 'arguments']) &&
    isNonEmptyString(value.id) &&
    isNonEmptyString(value.name) &&
    typeof value.arguments === 'string'
  );
}

const CHECKERS: Readonly<Record<string, Checker>> = {
  'turn/start': (data) => hasExactly(data, ['turn']) && isOrdinal(data.turn),
  'user/message': (data) => hasExactly(data, ['text']) && typeof data.text === 'string',
  'step/start': (data) => hasExactly(data, TURN_STEP) && isOrdinal(data.turn) && isOrdinal(data.step),
  'assistant/message': (data) =>
    hasExactly(data, ['turn', 'step', 'text', 'toolCalls']) &&
    isOrdinal(data.turn) &&
    isOrdinal(data.step) &&
    typeof data.text === 'string' &&
    Array.isArray(data.toolCalls) &&
    data.toolCalls.every(isToolCall),
  'tool/call': (data) =>
    hasExactly(data, ['turn', 'step', 'callId', 'name', 'arguments']) &&
    isOrdinal(data.turn) &&
    isOrdinal(data.step) &&
    isNonEmptyString(data.callId) &&
    isNonEmptyString(data.name) &&
    typeof data.arguments === 'string',
  'tool/result': (data) =>
    hasExactly(data, ['turn', 'step', 'callId', 'output', 'isError']) &&
    isOrdinal(data.turn) &&
    isOrdinal(data.step) &&
    isNonEmptyString(data.callId) &&
    typeof data.output === 'string' &&
    typeof data.isError === 'boolean',
  'step/end': (data) => hasExactly(data, TURN_STEP) && isOrdinal(data.turn) && isOrdinal(data.step),
  'turn/end': (data) => hasExactly(data, ['turn', 'reason']) && isOrdinal(data.turn) && REASONS.has(data.reason),
};

/** True only when the V0 schema of `type` accepts `data` (lossless JSON); false means "ask zod". */
export function isValidV0Payload(type: string, data: unknown): boolean {
  const check = Object.hasOwn(CHECKERS, type) ? CHECKERS[type] : undefined;
  return check !== undefined && isRecord(data) && check(data);
}
