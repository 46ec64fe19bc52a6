/**
 * Frozen V0 shapes (zod). V0 files have no header; messages are flat text and tool calls are
 * listed beside the assistant's text.
 */
import { z } from 'zod';

const id = z.string().min(1);
const ordinal = z.int().min(1);

/** Payload schemas of the V0 event types. */
export const v0DataSchemas = {
  'turn/start': z.strictObject({ turn: ordinal }),
  'user/message': z.strictObject({ text: z.string() }),
  'step/start': z.strictObject({ turn: ordinal, step: ordinal }),
  'assistant/message': z.strictObject({
    turn: ordinal,
    step: ordinal,
    text: z.string(),
    toolCalls: z.array(z.strictObject({ id, name: z.string().min(1), arguments: z.string() })),
  }),
  'tool/call': z.strictObject({ turn: ordinal, step: ordinal, callId: id, name: z.string().min(1), arguments: z.string() }),
  'tool/result': z.strictObject({ turn: ordinal, step: ordinal, callId: id, output: z.string(), isError: z.boolean() }),
  'step/end': z.strictObject({ turn: ordinal, step: ordinal }),
  'turn/end': z.strictObject({ turn: ordinal, reason: z.enum(['completed', 'aborted', 'error']) }),
} as const;

export type V0EventType = keyof typeof v0DataSchemas;
export type V0Data<K extends V0EventType> = z.infer<(typeof v0DataSchemas)[K]>;

/** A V0 event: `{seq, type, time, data}`. */
export type V0Event = { [K in V0EventType]: { seq: number; type: K; time: number; data: V0Data<K> } }[V0EventType];
