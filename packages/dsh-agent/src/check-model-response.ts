/**
 * @module check-model-response
 * What the loop accepts from `Model.complete()`: a `ModelResponse` in shape, else `MODEL_RESPONSE_INVALID`
 * naming the model and what came, so a custom model's bug ends its turn as an error (SPEC §25).
 */
import { isLosslessJson } from 'dsh-codec';
import { AgentError } from './agent-error.js';
import type { ModelResponse } from './model.js';

const STOP_REASONS: readonly unknown[] = ['end', 'tool-calls', 'max-tokens', 'refusal', 'other'];

function describe(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'bigint') return `${String(value)}n`;
  try {
    const text = JSON.stringify(value) as string | undefined;
    return text === undefined ? typeof value : text.length > 120 ? `${text.slice(0, 120)}…` : text;
  } catch {
    return Object.prototype.toString.call(value);
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The first way `value` is not a `ModelResponse`, or undefined when it is one. */
function problemOf(value: unknown): string | undefined {
  if (!isRecord(value)) return `expected an object { text, toolCalls }, received ${describe(value)}`;
  if (typeof value.text !== 'string') return `expected text to be a string, received ${describe(value.text)}`;
  if (!Array.isArray(value.toolCalls)) return `expected toolCalls to be an array, received ${describe(value.toolCalls)}`;
  for (const [index, call] of value.toolCalls.entries()) {
    const valid =
      isRecord(call) &&
      typeof call.name === 'string' &&
      call.name !== '' &&
      typeof call.arguments === 'string' &&
      (call.id === undefined || typeof call.id === 'string');
    if (!valid)
      return `expected toolCalls[${String(index)}] to be { name: string, arguments: string, id?: string }, received ${describe(call)}`;
  }
  if (value.reasoning !== undefined) {
    const reasoning = value.reasoning;
    if (!Array.isArray(reasoning) || reasoning.some((part) => !isRecord(part) || typeof part.text !== 'string'))
      return `expected reasoning to be an array of { text: string }, received ${describe(reasoning)}`;
    if (!isLosslessJson(reasoning)) return `expected reasoning to be plain JSON, received ${describe(reasoning)}`;
  }
  if (value.usage !== undefined && !(isRecord(value.usage) && isLosslessJson(value.usage)))
    return `expected usage to be a plain JSON object, received ${describe(value.usage)}`;
  if (value.stopReason !== undefined && !STOP_REASONS.includes(value.stopReason))
    return `expected stopReason to be one of ${STOP_REASONS.join(', ')}, received ${describe(value.stopReason)}`;
  return undefined;
}

/** Returns `value` as a `ModelResponse`, or throws `MODEL_RESPONSE_INVALID` saying what `model` returned instead. */
export function checkModelResponse(model: string, value: unknown): ModelResponse {
  const problem = problemOf(value);
  if (problem !== undefined)
    throw new AgentError('MODEL_RESPONSE_INVALID', `Model ${model} returned a response dsh cannot record: ${problem}.`);
  return value as ModelResponse;
}
