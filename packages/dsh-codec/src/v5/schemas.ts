/**
 * The V5 shapes (zod) — the documented current format (SPEC §3, §13): V4's shapes plus the
 * reasoning block in assistant messages and the optional `forkRequest` header field. Everything
 * else is V4's schema, reused as it was frozen.
 */
import { z } from 'zod';
import type { AssistantMessage, ContentBlock, CoreEventDataMap, CoreEventType, JsonObject, ReasoningBlock, SessionHeader } from '../types.js';
import { coreEventDataSchemas as v4CoreEventDataSchemas } from '../v4/schemas.js';

export {
  sessionConfigSchema,
  sessionEventSchema,
  surfaceOpSchema,
  toolResultMessageSchema,
  turnEndReasonSchema,
  userMessageSchema,
} from '../v4/schemas.js';

const id = z.string().min(1);
const ordinal = z.int().min(1);

const jsonObject = z.custom<JsonObject>((value) => typeof value === 'object' && value !== null && !Array.isArray(value), {
  error: 'expected a JSON object',
});

const reasoningBlock = z.strictObject({
  type: z.literal('reasoning'),
  text: z.string(),
  providerData: jsonObject.exactOptional(),
});

/** `{ type: "reasoning", text, providerData? }`: the model's reasoning; `text` may be empty when hidden. */
export const reasoningBlockSchema: z.ZodType<ReasoningBlock> = reasoningBlock;

/**
 * Any content block: text, tool call or reasoning. User and tool messages admit only text and
 * tool-call blocks (V4's); reasoning stands in assistant messages only.
 */
export const contentBlockSchema: z.ZodType<ContentBlock> = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('text'), text: z.string() }),
  z.strictObject({ type: z.literal('tool-call'), id, name: z.string().min(1), arguments: z.string() }),
  reasoningBlock,
]);

export const assistantMessageSchema: z.ZodType<AssistantMessage> = z.strictObject({
  id,
  role: z.literal('assistant'),
  content: z.array(contentBlockSchema),
});

/** The V5 header (line 1). Lineage rules beyond shape: see `docs/format.md`. */
export const sessionHeaderSchema: z.ZodType<SessionHeader> = z.strictObject({
  format: z.literal('dsh-session'),
  version: z.literal(5),
  id,
  createdAt: z.int(),
  cwd: z.string().exactOptional(),
  parentSession: id.exactOptional(),
  forkCut: z.int().min(-1).exactOptional(),
  inheritedEventCount: z.int().min(0),
  forkRequest: z.strictObject({ key: id, digest: id }).exactOptional(),
});

/** Payload schema of every core event type (SPEC §3.3): V4's, with V5 assistant messages. */
export const coreEventDataSchemas: { readonly [K in CoreEventType]: z.ZodType<CoreEventDataMap[K]> } = {
  ...v4CoreEventDataSchemas,
  'assistant/message': z.strictObject({
    turn: ordinal,
    step: ordinal,
    message: assistantMessageSchema,
    usage: jsonObject.exactOptional(),
  }),
};
