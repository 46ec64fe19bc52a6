/**
 * @module model-aliases
 * Claude Code's model names in dsh's specs (SPEC §25): `sonnet`, `opus`, `haiku` and any `claude-…`
 * mean `anthropic:…`, a bare `gpt-…` means `openai:…`; and the default spec the environment's keys pick.
 */

/** The Anthropic model a key alone picks, and `sonnet` means. */
export const DEFAULT_ANTHROPIC_MODEL = 'claude-sonnet-4-5';
/** The OpenAI model `OPENAI_API_KEY` alone picks. */
export const DEFAULT_OPENAI_MODEL = 'gpt-4.1';

/** Claude Code's aliases → the Anthropic model each names. */
export const CLAUDE_MODEL_ALIASES: Readonly<Record<string, string>> = {
  sonnet: DEFAULT_ANTHROPIC_MODEL,
  opus: 'claude-opus-4-5',
  haiku: 'claude-haiku-4-5',
};

/** `spec` with Claude Code's names turned into dsh's (`sonnet` → `anthropic:claude-sonnet-4-5`, `claude-x` → `anthropic:claude-x`, `gpt-x` → `openai:gpt-x`); others unchanged. */
export function canonicalModelSpec(spec: string): string {
  const alias = Object.hasOwn(CLAUDE_MODEL_ALIASES, spec) ? CLAUDE_MODEL_ALIASES[spec] : undefined;
  if (alias !== undefined) return `anthropic:${alias}`;
  if (/^claude-[\w.-]+$/.test(spec)) return `anthropic:${spec}`;
  if (/^gpt-[\w.-]+$/.test(spec)) return `openai:${spec}`;
  return spec;
}

/**
 * The spec a session with no `--model` and no recorded model runs on: `ANTHROPIC_API_KEY` set → the
 * Anthropic default, else `OPENAI_API_KEY` → the OpenAI default, else `keyless`.
 */
export function defaultModelSpec(env: Readonly<Record<string, string | undefined>>): string {
  if ((env.ANTHROPIC_API_KEY ?? '') !== '') return `anthropic:${DEFAULT_ANTHROPIC_MODEL}`;
  if ((env.OPENAI_API_KEY ?? '') !== '') return `openai:${DEFAULT_OPENAI_MODEL}`;
  return 'keyless';
}
