/**
 * @module runnable-model-spec
 * The model spec an import records (SPEC §25): the source's model name as a spec dsh runs —
 * `claude-…` as `anthropic:claude-…`, `gpt-…`/`o1…`/`codex-…` as `openai:…` — other names as they came.
 */

/** `model` as a dsh model spec: Anthropic's and OpenAI's names prefixed by their adapter; others unchanged. */
export function runnableModelSpec(model: string): string {
  if (/^claude-[\w.-]+$/.test(model)) return `anthropic:${model}`;
  if (/^(?:gpt-|codex-|o\d)[\w.-]*$/.test(model)) return `openai:${model}`;
  return model;
}
