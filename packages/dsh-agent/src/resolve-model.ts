/**
 * @module resolve-model
 * `resolveModel`: a CLI model spec (`keyless`, `scripted:FILE`, `openai:NAME`, `anthropic:NAME`)
 * turned into a `Model`, reading keys and endpoints from the environment.
 */
import { resolve } from 'node:path';
import { AgentError } from './agent-error.js';
import type { Model } from './model.js';
import { canonicalModelSpec } from './model-aliases.js';
import { createAnthropicModel } from './models/anthropic-model.js';
import { createKeylessModel } from './models/keyless-model.js';
import { createOpenAIModel } from './models/openai-model.js';
import { loadScriptedModel } from './models/scripted-model.js';
import type { RetryOptions } from './models/with-retries.js';

/** Options of `resolveModel`: where relative script paths start, the environment, a fetch, retries. */
export type ResolveModelOptions = {
  cwd?: string;
  env?: Readonly<Record<string, string | undefined>>;
  fetch?: typeof globalThis.fetch;
  retry?: RetryOptions;
};

/**
 * The model named by a CLI spec: `keyless`, `scripted:FILE` (a JSON script, SPEC §11),
 * `openai:NAME` (OpenAI-compatible Chat Completions at `OPENAI_BASE_URL` with `OPENAI_API_KEY`) or
 * `anthropic:NAME` (the Messages API at `ANTHROPIC_BASE_URL` with `ANTHROPIC_API_KEY`; extended
 * thinking when `ANTHROPIC_THINKING_BUDGET` is set); Claude Code's `sonnet`, `opus`, `haiku` and `claude-…`
 * names mean `anthropic:…` (`model-aliases.ts`). Throws `INVALID_MODEL_SPEC`, `INVALID_SCRIPT` or `MODEL_CONFIG`.
 */
export async function resolveModel(given: string, options: ResolveModelOptions = {}): Promise<Model> {
  const spec = canonicalModelSpec(given);
  if (spec === 'keyless') return createKeylessModel();
  const colon = spec.indexOf(':');
  const kind = colon === -1 ? spec : spec.slice(0, colon);
  const rest = colon === -1 ? '' : spec.slice(colon + 1);
  const shared = {
    ...(options.env === undefined ? {} : { env: options.env }),
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    ...(options.retry === undefined ? {} : { retry: options.retry }),
  };
  if (kind === 'scripted' && rest !== '') return loadScriptedModel(resolve(options.cwd ?? process.cwd(), rest), { name: spec });
  if (kind === 'openai' && rest !== '') return createOpenAIModel({ model: rest, ...shared });
  if (kind === 'anthropic' && rest !== '') {
    const budget = (options.env ?? process.env).ANTHROPIC_THINKING_BUDGET;
    if (budget !== undefined && budget !== '' && !/^\d+$/.test(budget)) {
      throw new AgentError(
        'MODEL_CONFIG',
        `anthropic: expected ANTHROPIC_THINKING_BUDGET to be a whole number of tokens, received ${JSON.stringify(budget)}`,
      );
    }
    const thinkingBudget = budget === undefined || budget === '' ? undefined : Number(budget);
    return createAnthropicModel({
      model: rest,
      ...shared,
      ...(thinkingBudget === undefined ? {} : { thinkingBudget, maxTokens: Math.max(8192, thinkingBudget + 4096) }),
    });
  }
  throw new AgentError(
    'INVALID_MODEL_SPEC',
    `expected a model spec "keyless", "scripted:FILE", "openai:NAME", "anthropic:NAME" or a Claude name (sonnet, opus, haiku, claude-…), received ${JSON.stringify(given)}`,
  );
}
