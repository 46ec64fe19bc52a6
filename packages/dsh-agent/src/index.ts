/**
 * @module dsh-agent
 * The agent loop that writes dsh sessions: turns, steps, queued input, cancellation, tools with
 * declared effects, model history derived from events, model adapters and manual compaction.
 * The public list (README "The public list") holds what other packages and apps use and the types of
 * their signatures; helpers only dsh-agent uses stay inside (docs/decisions/2026-12-02-agent-barrel.md).
 */
export { Agent } from './agent.js';
export type { AgentOptions } from './agent-options.js';
export type { AgentDelta } from './delta-fan-out.js';
export type { TurnResult } from './run-turn.js';
export type { AgentInput } from './turn-messages.js';
export { AGENT_ERROR_CODES, AgentError, type AgentErrorCode } from './agent-error.js';
export type {
  Model,
  ModelDelta,
  ModelMessage,
  ModelReasoning,
  ModelRequest,
  ModelResponse,
  ModelStopReason,
  ModelToolCall,
  ToolSpec,
} from './model.js';
export { deriveHistory } from './derive-history.js';
export { pendingInputsOf, type PendingInput } from './log-state.js';
export { defineTool, type DeclaredToolEffect, type Tool, type ToolContext, type ToolOutput } from './define-tool.js';
/** The confinement check for your own file tools: `path` resolved inside `cwd`, through symbolic links (`PATH_OUTSIDE_CWD`). */
export { resolveInCwd } from './resolve-in-cwd.js';
/** The bounds every file tool checks a path against before it opens or creates anything (`PATH_TOO_LONG`). */
export { PATH_LIMITS } from './check-path-limits.js';
export {
  SYSTEM_PROMPT_EVENT,
  defaultSystemPrompt,
  recordedSystemPrompt,
  recordedSystemPromptOf,
  type SystemPromptRecord,
} from './system-prompt.js';
export { demoTools } from './tools/demo-tools.js';
export { createKeylessModel } from './models/keyless-model.js';
export { createScriptedModel, type RecordedRequest, type ScriptedModel, type ScriptedResponse } from './models/scripted-model.js';
export { createOpenAIModel, type OpenAIModelOptions } from './models/openai-model.js';
export { createAnthropicModel, type AnthropicModelOptions } from './models/anthropic-model.js';
export type { RetryOptions } from './models/with-retries.js';
export type { ModelTimeoutOptions } from './models/model-timeouts.js';
export { resolveModel, type ResolveModelOptions } from './resolve-model.js';
export {
  canonicalModelSpec,
  CLAUDE_MODEL_ALIASES,
  DEFAULT_ANTHROPIC_MODEL,
  DEFAULT_OPENAI_MODEL,
  defaultModelSpec,
} from './model-aliases.js';
export type { CompactionResult, CompactOptions, Summarizer } from './compaction/compact-session.js';
export {
  CHECKPOINT_EVENT,
  checkpointWorkspace,
  type CheckpointRecord,
  type CheckpointSkip,
  type CheckpointStore,
  type CheckpointWorkspaceOptions,
} from './checkpoint-workspace.js';
