/**
 * The V4 shapes (zod), frozen with V4 (SPEC §3). The V4 validator checks every header and core
 * payload against these; the envelope rules are checked by hand (see `check-event-shape.ts`) and
 * described here by `sessionEventSchema`. V5 builds its shapes on these (`v5/schemas.ts`), so the
 * object schemas it extends are exported as zod objects.
 */
import { z } from 'zod';
import type {
  AssistantMessage,
  CoreEventDataMap,
  JsonObject,
  SessionConfig,
  SurfaceOp,
  ToolResultMessage,
  TurnEndReason,
  UserMessage,
} from '../types.js';
import type { V4ContentBlock, V4CoreEventType, V4Header } from './types.js';

const id = z.string().min(1);
/** Turns and steps are numbered from 1. */
const ordinal = z.int().min(1);

/** `{ type: "text", text }`. */
export const textBlockSchema = z.strictObject({ type: z.literal('text'), text: z.string() });
/** `{ type: "tool-call", id, name, arguments }` (`arguments`: raw JSON text). */
export const toolCallBlockSchema = z.strictObject({ type: z.literal('tool-call'), id, name: z.string().min(1), arguments: z.string() });

/** A text block or a tool-call block. */
export const contentBlockSchema: z.ZodType<V4ContentBlock> = z.discriminatedUnion('type', [textBlockSchema, toolCallBlockSchema]);

const content = z.array(contentBlockSchema);

export const userMessageSchema: z.ZodType<UserMessage> = z.strictObject({ id, role: z.literal('user'), content });
export const assistantMessageSchema = z.strictObject({ id, role: z.literal('assistant'), content }) satisfies z.ZodType<AssistantMessage>;
export const toolResultMessageSchema: z.ZodType<ToolResultMessage> = z.strictObject({
  id,
  role: z.literal('tool'),
  callId: id,
  content,
  isError: z.boolean(),
});

/** How a turn ended; `interrupted` is written by crash repair only, `forked` by fork closers only. */
export const turnEndReasonSchema: z.ZodType<TurnEndReason> = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('completed') }),
  z.strictObject({ kind: z.literal('cancelled') }),
  z.strictObject({ kind: z.literal('error'), error: z.strictObject({ message: z.string(), code: z.string().min(1) }) }),
  z.strictObject({ kind: z.literal('max-steps') }),
  z.strictObject({ kind: z.literal('interrupted') }),
  z.strictObject({ kind: z.literal('forked') }),
]);

export const sessionConfigSchema: z.ZodType<SessionConfig> = z.strictObject({
  tools: z.array(z.string().min(1)).exactOptional(),
  cwd: z.string().exactOptional(),
  model: z.string().exactOptional(),
});

/** Any JSON object (lossless JSON is checked before). */
export const jsonObjectSchema = z.custom<JsonObject>((value) => typeof value === 'object' && value !== null && !Array.isArray(value), {
  error: 'expected a JSON object',
});

/** The V4 header (line 1). Lineage rules beyond shape: see `docs/format.md`. */
export const sessionHeaderSchema = z.strictObject({
  format: z.literal('dsh-session'),
  version: z.literal(4),
  id,
  createdAt: z.int(),
  cwd: z.string().exactOptional(),
  parentSession: id.exactOptional(),
  forkCut: z.int().min(-1).exactOptional(),
  inheritedEventCount: z.int().min(0),
}) satisfies z.ZodType<V4Header>;

/** `{ op: "replace", start, end }`: replaces surface nodes `start..end` (inclusive, by seq). */
export const surfaceOpSchema: z.ZodType<SurfaceOp> = z.strictObject({
  op: z.literal('replace'),
  start: z.int().min(0),
  end: z.int().min(0),
});

/** The `assistant/message` payload: the step's assistant message and optional usage. */
export const assistantMessagePayloadSchema = z.strictObject({
  turn: ordinal,
  step: ordinal,
  message: assistantMessageSchema,
  usage: jsonObjectSchema.exactOptional(),
}) satisfies z.ZodType<CoreEventDataMap['assistant/message']>;

/** Payload schema of every core event type (SPEC §3.3). */
export const coreEventDataSchemas: { readonly [K in V4CoreEventType]: z.ZodType<CoreEventDataMap[K]> } = {
  'session/end-seed': z.strictObject({ inherited: z.literal(true).exactOptional() }),
  'session/title': z.strictObject({ title: z.string() }),
  'session/config': sessionConfigSchema,
  'input/queued': z.strictObject({ inputId: id, message: userMessageSchema }),
  'turn/start': z.strictObject({ turn: ordinal }),
  'user/message': z.strictObject({ message: userMessageSchema, inputId: id.exactOptional() }),
  'step/start': z.strictObject({ turn: ordinal, step: ordinal }),
  'assistant/message': assistantMessagePayloadSchema,
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
    message: toolResultMessageSchema,
    error: z.strictObject({ name: z.string().min(1), code: z.string().min(1) }).exactOptional(),
  }),
  'step/end': z.strictObject({ turn: ordinal, step: ordinal }),
  'turn/end': z.strictObject({ turn: ordinal, reason: turnEndReasonSchema }),
};

/**
 * The envelope of any event, for documentation and tooling: exact keys, `data` any JSON. The
 * validator also requires `seq` = position, lossless data, `surfaceOp` only on surface events,
 * and a known core type or `ignorable: true`.
 */
export const sessionEventSchema = z.strictObject({
  seq: z.int().min(0),
  type: z.string().min(1),
  time: z.int(),
  data: z.json(),
  surfaceOp: surfaceOpSchema.exactOptional(),
  ignorable: z.literal(true).exactOptional(),
});
