/**
 * The V7 shapes (zod) — the documented current format (SPEC §24): V6's shapes, the header's
 * optional `segments` (the sealed segments a JSONL manifest takes its first events from) with
 * `version: 7`, and `session/config`'s optional `checkpoints` (SPEC §23: `false` turns a session's
 * workspace checkpoints off, stored). Everything else is V6's schema, reused as it was frozen (V7 builds on V6).
 */
import { z } from 'zod';
import type { CoreEventDataMap, CoreEventType, SealedSegment, SessionConfig, SessionHeader } from '../types.js';
import { coreEventDataSchemas as v6CoreEventDataSchemas, sessionHeaderSchema as v6SessionHeaderSchema } from '../v6/schemas.js';

/** `session/config` (latest wins): V6's fields, and `checkpoints: false` to take no workspace checkpoints for the session. */
export const sessionConfigSchema: z.ZodType<SessionConfig> = z.strictObject({
  tools: z.array(z.string().min(1)).exactOptional(),
  cwd: z.string().exactOptional(),
  model: z.string().exactOptional(),
  checkpoints: z.boolean().exactOptional(),
});

/** Each V7 core event's payload schema: V6's, with V7's `session/config`. */
export const coreEventDataSchemas: { readonly [K in CoreEventType]: z.ZodType<CoreEventDataMap[K]> } = {
  ...v6CoreEventDataSchemas,
  'session/config': sessionConfigSchema,
};

export {
  assistantMessageSchema,
  contentBlockSchema,
  reasoningBlockSchema,
  sessionEventSchema,
  sessionNoteSchema,
  surfaceOpSchema,
  toolResultMessageSchema,
  turnEndReasonSchema,
  userMessageSchema,
} from '../v6/schemas.js';

/** A sealed segment a manifest names: a SHA-256 in lowercase hex, then 1 or more bytes holding 1 or more (at most `bytes`) lines. */
export const sealedSegmentSchema = z
  .strictObject({
    digest: z.string().regex(/^[0-9a-f]{64}$/, 'expected a SHA-256 digest: 64 lowercase hex digits'),
    bytes: z.int().min(1),
    lines: z.int().min(1),
  })
  .refine((segment) => segment.lines <= segment.bytes, {
    error: 'expected at most one line per byte',
    path: ['lines'],
  }) satisfies z.ZodType<SealedSegment>;

/** The V7 header (line 1): V6's with `version: 7` and optional `segments`. Lineage rules beyond shape: see `docs/format.md`. */
export const sessionHeaderSchema = v6SessionHeaderSchema.extend({
  version: z.literal(7),
  segments: z.array(sealedSegmentSchema).min(1).exactOptional(),
}) satisfies z.ZodType<SessionHeader>;
