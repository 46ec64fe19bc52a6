/**
 * The V5 shapes (zod) — the documented current format (SPEC §3, §13): V4's shapes plus the
 * reasoning block in assistant messages and the optional `forkRequest` header field. Everything
 * else is V4's schema, reused or extended as it was frozen (V5 builds on V4, never the reverse).
 */
import { z } from 'zod';
import type { AssistantMessage, ContentBlock, CoreEventDataMap, ReasoningBlock } from '../types.js';
import type { V5CoreEventType, V5Header } from './types.js';
import {
  assistantMessagePayloadSchema as v4AssistantMessagePayloadSchema,
  assistantMessageSchema as v4AssistantMessageSchema,
  coreEventDataSchemas as v4CoreEventDataSchemas,
  jsonObjectSchema,
  sessionHeaderSchema as v4SessionHeaderSchema,
  textBlockSchema,
  toolCallBlockSchema,
} from '../v4/schemas.js';

export {
  sessionConfigSchema,
  sessionEventSchema,
  surfaceOpSchema,
  toolResultMessageSchema,
  turnEndReasonSchema,
  userMessageSchema,
} from '../v4/schemas.js';

const reasoningBlock = z.strictObject({
  type: z.literal('reasoning'),
  text: z.string(),
  providerData: jsonObjectSchema.exactOptional(),
});

/** `{ type: "reasoning", text, providerData? }`: the model's reasoning; `text` may be empty when hidden. */
export const reasoningBlockSchema: z.ZodType<ReasoningBlock> = reasoningBlock;

/**
 * Any content block: text, tool call or reasoning. User and tool messages admit only text and
 * tool-call blocks (V4's); reasoning stands in assistant messages only.
 */
export const contentBlockSchema: z.ZodType<ContentBlock> = z.discriminatedUnion('type', [
  textBlockSchema,
  toolCallBlockSchema,
  reasoningBlock,
]);

export const assistantMessageSchema = v4AssistantMessageSchema.extend({
  content: z.array(contentBlockSchema),
}) satisfies z.ZodType<AssistantMessage>;

/** The V5 header (line 1): V4's with `version: 5` and the optional `forkRequest`. Lineage rules beyond shape: see `docs/format.md`. */
export const sessionHeaderSchema = v4SessionHeaderSchema.extend({
  version: z.literal(5),
  forkRequest: z.strictObject({ key: z.string().min(1), digest: z.string().min(1) }).exactOptional(),
}) satisfies z.ZodType<V5Header>;

/** Payload schema of every core event type (SPEC §3.3): V4's, with V5 assistant messages. */
export const coreEventDataSchemas: { readonly [K in V5CoreEventType]: z.ZodType<CoreEventDataMap[K]> } = {
  ...v4CoreEventDataSchemas,
  'assistant/message': v4AssistantMessagePayloadSchema.extend({ message: assistantMessageSchema }),
};
