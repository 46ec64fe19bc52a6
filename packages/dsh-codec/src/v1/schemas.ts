/**
 * Frozen V1 shapes (zod): the first header, structured messages with content blocks, and
 * turn-end reasons as objects.
 */
import { z } from 'zod';

const id = z.string().min(1);
const ordinal = z.int().min(1);

const contentBlock = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('text'), text: z.string() }),
  z.strictObject({ type: z.literal('tool-call'), id, name: z.string().min(1), arguments: z.string() }),
]);
const content = z.array(contentBlock);

const jsonObject = z.custom<Record<string, unknown>>((value) => typeof value === 'object' && value !== null && !Array.isArray(value), {
  error: 'expected a JSON object',
});

/** The V1 header, line 1 of a V1 file. */
export const v1HeaderSchema = z.strictObject({
  format: z.literal('dsh-session'),
  version: z.literal(1),
  id,
  createdAt: z.int(),
  cwd: z.string().exactOptional(),
});

/** Payload schemas of the V1 event types. */
export const v1DataSchemas = {
  'turn/start': z.strictObject({ turn: ordinal }),
  'user/message': z.strictObject({ message: z.strictObject({ id, role: z.literal('user'), content }) }),
  'step/start': z.strictObject({ turn: ordinal, step: ordinal }),
  'assistant/message': z.strictObject({
    turn: ordinal,
    step: ordinal,
    message: z.strictObject({ id, role: z.literal('assistant'), content }),
    usage: jsonObject.exactOptional(),
  }),
  'tool/call': z.strictObject({ turn: ordinal, step: ordinal, callId: id, name: z.string().min(1), arguments: z.string() }),
  'tool/result': z.strictObject({
    turn: ordinal,
    step: ordinal,
    message: z.strictObject({ id, role: z.literal('tool'), callId: id, content, isError: z.boolean() }),
  }),
  'step/end': z.strictObject({ turn: ordinal, step: ordinal }),
  'turn/end': z.strictObject({
    turn: ordinal,
    reason: z.strictObject({ kind: z.enum(['completed', 'aborted', 'error']), message: z.string().exactOptional() }),
  }),
} as const;

export type V1Header = z.infer<typeof v1HeaderSchema>;
export type V1EventType = keyof typeof v1DataSchemas;
export type V1Data<K extends V1EventType> = z.infer<(typeof v1DataSchemas)[K]>;

/** A V1 event: `{seq, type, time, data}`. */
export type V1Event = { [K in V1EventType]: { seq: number; type: K; time: number; data: V1Data<K> } }[V1EventType];
