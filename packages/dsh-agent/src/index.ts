/**
 * @module dsh-agent
 * The agent loop that writes dsh sessions: turns, steps, queued input, cancellation, tools with
 * declared effects, model history derived from events, model adapters and manual compaction.
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
export { deriveHistory, deriveSurface, type SurfaceNode } from './derive-history.js';
export { nextTurnNumber, pendingInputsOf, type PendingInput } from './log-state.js';
export { defineTool, type DeclaredToolEffect, type Tool, type ToolContext, type ToolOutput } from './define-tool.js';
export { toToolSpec } from './to-tool-spec.js';
export { resolveInCwd } from './resolve-in-cwd.js';
/** The bounds every file tool checks a path against before it opens or creates anything (`PATH_TOO_LONG`). */
export { PATH_LIMITS } from './check-path-limits.js';
export {
  SYSTEM_PROMPT_EVENT,
  defaultSystemPrompt,
  recordedSystemPrompt,
  systemPromptText,
  type SystemPromptRecord,
} from './system-prompt.js';
export { demoTools } from './tools/demo-tools.js';
export { listFilesTool } from './tools/list-files-tool.js';
export { makeDirTool } from './tools/make-dir-tool.js';
export { readFileTool } from './tools/read-file-tool.js';
export { writeFileTool } from './tools/write-file-tool.js';
export { createKeylessModel } from './models/keyless-model.js';
export {
  createScriptedModel,
  loadScriptedModel,
  parseScript,
  type RecordedRequest,
  type ScriptedModel,
  type ScriptedResponse,
} from './models/scripted-model.js';
export { createOpenAIModel, type OpenAIModelOptions } from './models/openai-model.js';
export { createAnthropicModel, type AnthropicModelOptions } from './models/anthropic-model.js';
export type { RetryOptions } from './models/with-retries.js';
/** The time bounds of a model request (idle, headers, attempt, total) and their defaults. */
export { DEFAULT_MODEL_TIMEOUTS, type ModelTimeoutOptions } from './models/model-timeouts.js';
export { resolveModel, type ResolveModelOptions } from './resolve-model.js';
export {
  compactSession,
  openCompaction,
  type CompactionResult,
  type CompactOptions,
  type Summarizer,
} from './compaction/compact-session.js';
