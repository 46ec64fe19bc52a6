/**
 * The V6 shapes (zod) — the documented current format (SPEC §3, §13, §23): V5's shapes plus the
 * `session/note` event and `version: 6` in the header. Everything else is V5's schema, reused as it
 * was frozen (V6 builds on V5, never the reverse).
 */
import { z } from 'zod';
import { describeValue } from '../shared/describe-value.js';
import type { CoreEventDataMap, CoreEventType, SessionNoteData } from '../types.js';
import { coreEventDataSchemas as v5CoreEventDataSchemas, sessionHeaderSchema as v5SessionHeaderSchema } from '../v5/schemas.js';
import type { V6Header } from './types.js';
import { WORKSPACE_STALE_MAX_PATHS, canonicalNoteText, movedNoteProblem, staleNoteProblem } from './workspace-texts.js';

export {
  assistantMessageSchema,
  contentBlockSchema,
  reasoningBlockSchema,
  sessionConfigSchema,
  sessionEventSchema,
  surfaceOpSchema,
  toolResultMessageSchema,
  turnEndReasonSchema,
  userMessageSchema,
} from '../v5/schemas.js';

const path = z.string().min(1);

const noteShape = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('workspace-stale'),
    text: z.string(),
    paths: z.array(path).min(1).max(WORKSPACE_STALE_MAX_PATHS),
    more: z.int().min(1).exactOptional(),
  }),
  z.strictObject({ kind: z.literal('workspace-moved'), text: z.string(), from: path, to: path }),
]);

/**
 * `session/note`: a stale-files note (1–50 paths, then `more` only after 50) or a moved-directory
 * note (two different directories), whose `text` is exactly the canonical text of the rest.
 */
export const sessionNoteSchema: z.ZodType<SessionNoteData> = noteShape.superRefine((data, context) => {
  const problem = data.kind === 'workspace-stale' ? staleNoteProblem(data.paths, data.more) : movedNoteProblem(data.from, data.to);
  if (problem !== undefined) {
    context.addIssue({ code: 'custom', path: data.kind === 'workspace-stale' ? ['more'] : ['to'], message: problem });
    return;
  }
  if (data.text !== canonicalNoteText(data)) {
    context.addIssue({
      code: 'custom',
      path: ['text'],
      message: `expected the canonical ${data.kind} text of this note's data (see workspace${data.kind === 'workspace-stale' ? 'Stale' : 'Moved'}NoteText), got ${describeValue(data.text)}`,
    });
  }
});

/** The V6 header (line 1): V5's with `version: 6`. Lineage rules beyond shape: see `docs/format.md`. */
export const sessionHeaderSchema = v5SessionHeaderSchema.extend({ version: z.literal(6) }) satisfies z.ZodType<V6Header>;

/** Payload schema of every core event type (SPEC §3.3): V5's, and `session/note`. */
export const coreEventDataSchemas: { readonly [K in CoreEventType]: z.ZodType<CoreEventDataMap[K]> } = {
  ...v5CoreEventDataSchemas,
  'session/note': sessionNoteSchema,
};
