/** @module The zod schemas of the HTTP request bodies, query strings and headers (the OpenAPI document is generated from them). */
import { z } from 'zod';
import { TRANSCRIPT_FORMATS } from 'dsh-import';
import { isPrintableTitle, printableTitle } from 'dsh-session';

/**
 * Whether the session takes workspace checkpoints (SPEC §23), stored in its config: `false` takes none,
 * now or on any later resume; a value that is not a boolean is a 400 `BAD_REQUEST` naming the field.
 */
const checkpoints = z.boolean({ error: (issue) => `expected true or false, got ${describeValue(issue.input)}` });

function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/** A session's configuration as a request may set it: tool availability, working directory, model, checkpoints. */
export const sessionConfigSchema = z
  .object({
    tools: z.array(z.string().min(1).max(64)).max(256).optional(),
    cwd: z.string().min(1).max(4096).optional(),
    model: z.string().min(1).max(256).optional(),
    checkpoints: checkpoints.optional(),
  })
  .strict();

const PRINTABLE = 'expected printable text: control characters (U+0000–U+001F, U+007F–U+009F, line separators, bidi overrides) are refused';

const titleText = z.string().trim().min(1).max(200);

const title = titleText.refine(isPrintableTitle, PRINTABLE);

/**
 * The same rule as `title`, run once and carried on as a `PrintableTitle`, so the store does not check
 * the title again (the fork and peers routes).
 */
const checkedTitle = titleText.transform((text, context) => {
  const checked = printableTitle(text);
  if (checked === undefined) context.issues.push({ code: 'custom', message: PRINTABLE, input: text });
  return checked ?? z.NEVER;
});

/**
 * A cut as the fork and peers routes take it: only required to be a number here (whether it names an
 * event is the host's `INVALID_CUT`). `JSON.parse('{"atSeq":-0}')` yields -0: the same cut as 0 (SPEC's
 * lossless JSON has no -0).
 */
const atSeq = z.number().transform((value) => (Object.is(value, -0) ? 0 : value));

/** `POST /api/sessions`. */
export const createSessionBodySchema = z.object({ title: title.optional(), config: sessionConfigSchema.optional() }).strict();

/** `POST /api/sessions/:id/messages`. */
export const messageBodySchema = z.object({ text: z.string().min(1).max(1_000_000) }).strict();

/**
 * `POST /api/sessions/:id/fork`. `atSeq` is only required to be a number here: whether it names an
 * event of the observation is the host's `INVALID_CUT` (422), not a malformed body (400).
 */
export const forkBodySchema = z
  .object({
    atSeq: atSeq.optional(),
    title: checkedTitle.optional(),
    config: sessionConfigSchema.optional(),
    /** The child's own directory holding the workspace at the cut (the host's worktree maker). */
    worktree: z.boolean().optional(),
    /** Stored in the child's config merged over what it inherits (`config` replaces it whole): `false` takes no checkpoints. */
    checkpoints: checkpoints.optional(),
  })
  .strict();

/** `POST /api/sessions/:id/peers`: a cut (as `fork`'s) and 1–32 peers, each with its first prompt. */
export const peersBodySchema = z
  .object({
    atSeq: atSeq.optional(),
    peers: z
      .array(
        z
          .object({ prompt: z.string().min(1).max(1_000_000), title: checkedTitle.optional(), config: sessionConfigSchema.optional() })
          .strict(),
      )
      .min(1)
      .max(32),
    /** Every peer's own directory holding the workspace at the cut. */
    worktree: z.boolean().optional(),
    /** Stored in every peer's config (a peer's own `config.checkpoints` wins): `false` takes no checkpoints. */
    checkpoints: checkpoints.optional(),
  })
  .strict();

/** `PATCH /api/sessions/:id`. */
export const renameBodySchema = z.object({ title }).strict();

/** `GET /api/sessions/:id/events?from=SEQ`: a non-negative integer, default 0. */
export const eventsQuerySchema = z.object({
  from: z
    .string()
    .regex(/^\d{1,15}$/, 'expected a non-negative integer')
    .optional(),
});

/** An `Idempotency-Key` header value: 1–255 visible ASCII characters. */
export const idempotencyKeySchema = z.string().regex(/^[\x21-\x7e]{1,255}$/, 'expected 1-255 visible ASCII characters');

const transcriptFormat = z.enum(['auto', ...TRANSCRIPT_FORMATS]);

/**
 * `POST /api/import`: one transcript (`text`) or several (`files`, e.g. a main session and its
 * subagents, or a Codex rollout and its forks), the format of all (default `auto`), a title for the first.
 */
export const importBodySchema = z
  .object({
    text: z.string().optional(),
    files: z
      .array(z.object({ text: z.string(), name: z.string().min(1).max(4096).optional() }).strict())
      .min(1)
      .max(256)
      .optional(),
    format: transcriptFormat.optional(),
    title: title.optional(),
  })
  .strict()
  .refine((body) => (body.text === undefined) !== (body.files === undefined), {
    error: 'expected exactly one of "text" (one transcript) or "files" (several)',
  });
