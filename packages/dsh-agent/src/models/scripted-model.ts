/**
 * @module models/scripted-model
 * The scripted model (`createScriptedModel`, `loadScriptedModel`): one SPEC §11 script entry per
 * request, the requests it saw kept for tests; `parseScript` checks a script (`INVALID_SCRIPT`).
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { AgentError } from '../agent-error.js';
import type { Model, ModelRequest, ModelResponse } from '../model.js';
import { throwIfAborted } from './throw-if-aborted.js';

const jsonObject = z.record(z.string(), z.json());

const scriptedToolCall = z.strictObject({
  /** Optional call id; the loop assigns one when absent. */
  id: z.string().min(1).optional(),
  name: z.string().min(1),
  /** An object is sent as its JSON text; a string is passed through raw (to script malformed JSON). */
  arguments: z.union([jsonObject, z.string()]).optional(),
});

const scriptedResponse = z.strictObject({
  text: z.string().optional(),
  toolCalls: z.array(scriptedToolCall).optional(),
  usage: jsonObject.optional(),
  /** Makes this request fail with `SCRIPTED_FAILURE` and this message instead of answering. */
  error: z.strictObject({ message: z.string() }).optional(),
});

const script = z.array(scriptedResponse);

/** One scripted response (SPEC §11), plus the optional `id`, `usage` and `error` extensions. */
export type ScriptedResponse = z.input<typeof scriptedResponse>;

/** What a scripted model saw: each request's system prompt, messages and tool specs. */
export type RecordedRequest = Pick<ModelRequest, 'system' | 'messages' | 'tools'>;

/** A model that answers from a fixed script, one response per request, and keeps the requests. */
export interface ScriptedModel extends Model {
  /** Every request received, in order (including the one that found the script exhausted). */
  readonly requests: readonly RecordedRequest[];
  /** The responses not consumed yet. */
  unused(): ScriptedResponse[];
}

/**
 * Checks a parsed script against SPEC §11's format and returns it. Throws `INVALID_SCRIPT`
 * naming the offending entry and field; `source` (a file name) goes into the message.
 */
export function parseScript(value: unknown, source = 'script'): ScriptedResponse[] {
  const parsed = script.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue === undefined ? '' : ` at [${issue.path.map(String).join('.')}]`;
  throw new AgentError(
    'INVALID_SCRIPT',
    `${source}: expected a JSON array of { "text"?: string, "toolCalls"?: [{ "name": string, ` +
      `"arguments": object }] }${where}: ${issue?.message ?? 'invalid'}`,
    { cause: parsed.error },
  );
}

/**
 * A model consuming `responses` one per request. A request past the end fails with
 * `SCRIPT_EXHAUSTED` (the loop records it as an error turn); `unused()` reports what is left.
 */
export function createScriptedModel(responses: readonly ScriptedResponse[], options: { name?: string } = {}): ScriptedModel {
  const entries = parseScript(responses, options.name);
  const requests: RecordedRequest[] = [];
  let next = 0;
  const name = options.name ?? 'scripted';
  return {
    name,
    requests,
    unused: () => entries.slice(next),
    complete(request: ModelRequest): Promise<ModelResponse> {
      throwIfAborted(request.signal);
      requests.push({
        ...(request.system === undefined ? {} : { system: request.system }),
        messages: [...request.messages],
        tools: [...request.tools],
      });
      const entry = entries[next];
      if (entry === undefined) {
        return Promise.reject(
          new AgentError('SCRIPT_EXHAUSTED', `${name}: request ${requests.length} has no response; the script has ${entries.length}`),
        );
      }
      next += 1;
      if (entry.error !== undefined) {
        return Promise.reject(new AgentError('SCRIPTED_FAILURE', `${name}: ${entry.error.message}`));
      }
      if (entry.text !== undefined && entry.text !== '') request.onDelta?.({ text: entry.text });
      return Promise.resolve(toResponse(entry));
    },
  };
}

/** Reads a JSON script file (SPEC §11) and returns a scripted model named `scripted:<file>` by default. */
export async function loadScriptedModel(file: string, options: { name?: string } = {}): Promise<ScriptedModel> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (cause) {
    throw new AgentError('INVALID_SCRIPT', `${file}: cannot read the script file`, { cause });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw new AgentError('INVALID_SCRIPT', `${file}: expected JSON, received unparsable text`, { cause });
  }
  return createScriptedModel(parseScript(value, file), { name: options.name ?? `scripted:${file}` });
}

function toResponse(entry: ScriptedResponse): ModelResponse {
  const response: ModelResponse = {
    text: entry.text ?? '',
    toolCalls: (entry.toolCalls ?? []).map((call) => ({
      ...(call.id === undefined ? {} : { id: call.id }),
      name: call.name,
      arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {}),
    })),
  };
  if (entry.usage !== undefined) response.usage = entry.usage;
  return response;
}
