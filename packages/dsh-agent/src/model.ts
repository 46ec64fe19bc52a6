/**
 * @module model
 * The `Model` interface: one request (system prompt, history derived from events, tool specs)
 * in, one assistant response out. Streaming deltas are optional and never persisted.
 */
import type { AssistantMessage, JsonObject, ToolResultMessage, UserMessage } from 'dsh-codec';

/** One model-visible message: what `deriveHistory()` returns. */
export type ModelMessage = UserMessage | AssistantMessage | ToolResultMessage;

/** A tool as the model sees it: name, description and a JSON Schema for its arguments. */
export type ToolSpec = { name: string; description: string; parameters: JsonObject };

/**
 * A piece of a streaming response, for a live UI only; never written to the log. Each delta adds
 * to what came before in the same request: `text` to the answer, `reasoning` to the model's thinking.
 */
export type ModelDelta = { text?: string; reasoning?: string };

/** Everything a model gets for one step. `signal` aborts the request (cancellation). */
export type ModelRequest = {
  system?: string;
  messages: readonly ModelMessage[];
  tools: readonly ToolSpec[];
  signal?: AbortSignal;
  onDelta?: (delta: ModelDelta) => void;
};

/** A tool call the model asked for; `arguments` is the raw JSON string it produced. */
export type ModelToolCall = {
  /** The provider's call id; the loop assigns `call-<seq>-<index>` when absent or repeated. */
  id?: string;
  name: string;
  arguments: string;
};

/**
 * A reasoning block the provider returned: its visible text (possibly empty when hidden) and what
 * the provider needs back verbatim (`providerData`, e.g. a thinking signature).
 */
export type ModelReasoning = { text: string; providerData?: JsonObject };

/**
 * One assistant response: reasoning (in order), text (possibly empty), tool calls in order, and
 * usage normalised to `inputTokens`, `outputTokens` and, where reported, `cacheReadTokens`,
 * `cacheWriteTokens`, `reasoningTokens`, `totalTokens`.
 */
export type ModelResponse = {
  reasoning?: ModelReasoning[];
  text: string;
  toolCalls: ModelToolCall[];
  usage?: JsonObject;
  /** Why the provider stopped, mapped: `end`, `tool-calls`, `max-tokens`, `refusal` or `other`. */
  stopReason?: ModelStopReason;
};

/** The provider's stop reason, mapped to one vocabulary across adapters. */
export type ModelStopReason = 'end' | 'tool-calls' | 'max-tokens' | 'refusal' | 'other';

/**
 * A language model. `complete()` resolves with one response or rejects (an `AgentError`, or an
 * abort error once `request.signal` fires); the loop turns a rejection into `turn/end`.
 */
export interface Model {
  /** A short identifier such as `keyless`, `scripted:script.json` or `openai:gpt-4o-mini`. */
  readonly name: string;
  complete(request: ModelRequest): Promise<ModelResponse>;
}
