/**
 * Frozen V3 shapes (zod): the header and the payload of every V3 core event. V3 knows no
 * `forked` turn-end reason; fork closers arrived with V4.
 */
import { z } from 'zod';

const id = z.string().min(1);
const ordinal = z.int().min(1);

const textBlock = z.strictObject({ type: z.literal('text'), text: z.string() });
const toolCallBlock = z.strictObject({ type: z.literal('tool-call'), id, name: z.string().min(1), arguments: z.string() });
const contentBlock = z.discriminatedUnion('type', [textBlock, toolCallBlock]);
const content = z.array(contentBlock);

const userMessage = z.strictObject({ id, role: z.literal('user'), content });
const assistantMessage = z.strictObject({ id, role: z.literal('assistant'), content });
const toolResultMessage = z.strictObject({ id, role: z.literal('tool'), callId: id, content, isError: z.boolean() });

const jsonObject = z.custom<Record<string, unknown>>((value) => typeof value === 'object' && value !== null && !Array.isArray(value), {
  error: 'expected a JSON object',
});

const turnEndReason = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('completed') }),
  z.strictObject({ kind: z.literal('cancelled') }),
  z.strictObject({ kind: z.literal('error'), error: z.strictObject({ message: z.string(), code: z.string().min(1) }) }),
  z.strictObject({ kind: z.literal('max-steps') }),
  z.strictObject({ kind: z.literal('interrupted') }),
]);

/** The V3 header, line 1 of a V3 file. */
export const v3HeaderSchema = z.strictObject({
  format: z.literal('dsh-session'),
  version: z.literal(3),
  id,
  createdAt: z.int(),
  cwd: z.string().exactOptional(),
  parentSession: id.exactOptional(),
  forkCut: z.int().min(-1).exactOptional(),
  inheritedEventCount: z.int().min(0),
});

/** Payload schemas of the V3 core event types. */
export const v3DataSchemas = {
  'session/end-seed': z.strictObject({ inherited: z.literal(true).exactOptional() }),
  'session/title': z.strictObject({ title: z.string() }),
  'session/config': z.strictObject({
    tools: z.array(z.string().min(1)).exactOptional(),
    cwd: z.string().exactOptional(),
    model: z.string().exactOptional(),
  }),
  'input/queued': z.strictObject({ inputId: id, message: userMessage }),
  'turn/start': z.strictObject({ turn: ordinal }),
  'user/message': z.strictObject({ message: userMessage, inputId: id.exactOptional() }),
  'step/start': z.strictObject({ turn: ordinal, step: ordinal }),
  'assistant/message': z.strictObject({ turn: ordinal, step: ordinal, message: assistantMessage, usage: jsonObject.exactOptional() }),
  'tool/call': z.strictObject({
    turn: ordinal,
    step: ordinal,
    callId: id,
    name: z.string().min(1),
    arguments: z.string(),
    effect: z.enum(['read-only', 'idempotent', 'side-effect', 'unknown']),
  }),
  'tool/result': z.strictObject({
    turn: ordinal,
    step: ordinal,
    message: toolResultMessage,
    error: z.strictObject({ name: z.string().min(1), code: z.string().min(1) }).exactOptional(),
  }),
  'step/end': z.strictObject({ turn: ordinal, step: ordinal }),
  'turn/end': z.strictObject({ turn: ordinal, reason: turnEndReason }),
} as const;

export type V3Header = z.infer<typeof v3HeaderSchema>;
export type V3EventType = keyof typeof v3DataSchemas;
export type V3Data<K extends V3EventType> = z.infer<(typeof v3DataSchemas)[K]>;
