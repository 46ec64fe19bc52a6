import { resolve } from 'node:path';
import { AgentError } from './agent-error.js';
import type { Model } from './model.js';
import { createKeylessModel } from './models/keyless-model.js';
import { createOpenAIModel } from './models/openai-model.js';
import { loadScriptedModel } from './models/scripted-model.js';

/** Options of `resolveModel`: where relative script paths start, the environment, a fetch. */
export type ResolveModelOptions = {
  cwd?: string;
  env?: Readonly<Record<string, string | undefined>>;
  fetch?: typeof globalThis.fetch;
};

/**
 * The model named by a CLI spec: `keyless`, `scripted:FILE` (a JSON script, SPEC §11) or
 * `openai:NAME` (OpenAI-compatible Chat Completions at `OPENAI_BASE_URL` with `OPENAI_API_KEY`).
 * Throws `INVALID_MODEL_SPEC`, `INVALID_SCRIPT` or `MODEL_CONFIG`.
 */
export async function resolveModel(spec: string, options: ResolveModelOptions = {}): Promise<Model> {
  if (spec === 'keyless') return createKeylessModel();
  const colon = spec.indexOf(':');
  const kind = colon === -1 ? spec : spec.slice(0, colon);
  const rest = colon === -1 ? '' : spec.slice(colon + 1);
  if (kind === 'scripted' && rest !== '') return loadScriptedModel(resolve(options.cwd ?? process.cwd(), rest), { name: spec });
  if (kind === 'openai' && rest !== '') {
    return createOpenAIModel({
      model: rest,
      ...(options.env === undefined ? {} : { env: options.env }),
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    });
  }
  throw new AgentError(
    'INVALID_MODEL_SPEC',
    `expected a model spec "keyless", "scripted:FILE" or "openai:NAME", received ${JSON.stringify(spec)}`,
  );
}
