/**
 * @module @dsh/test-utils
 * Shared test helpers: temporary directories that clean themselves up, log builders, process trees,
 * fault-suite reporting, the one runner of the real `dsh` bin, the one fake model server (three wire APIs).
 */
export { makeTempDir, type TempDir } from './make-temp-dir.js';
export { mountSmallDisk, type SmallDisk } from './small-disk.js';
export { startModelServer, type ModelServer } from './model-server/start-model-server.js';
export type { ModelHandler, ModelServerReply, ModelServerRequest, RequestApi } from './model-server/model-server-types.js';
export { scriptedHandler, type ModelScripts } from './model-server/model-scripts.js';
export {
  scriptReplies,
  type ModelApi,
  type ReplyScript,
  type ScriptedReply,
  type ScriptedToolCall,
} from './model-server/scripted-reply.js';
export { anthropicFrames, anthropicMessage } from './model-server/anthropic-wire.js';
export { chatCompletionChunk, chatFrames, responsesFrames } from './model-server/openai-wire.js';
export { streamedReply } from './model-server/streamed-reply.js';
export { splitStream } from './model-server/split-stream.js';
export { LogBuilder, type LogEvent, type LogJson, type LogToolCall, type LogToolEffect, type LogTurnEnd } from './log-builder.js';
export { logEvent, logEvents, type LogEventExtra, type LogRow } from './log-events.js';
export { completedTurnRows, logRow, logUserMessage, type LogJsonRow } from './log-rows.js';
export { arbitraryLog, arbitraryLogWithSeq, buildGeneratedLog, type ArbitraryLogOptions } from './arbitrary-log.js';
export { acceptsConnections, commandLineOf, descendantsOf, isRunning, waitFor } from './process-tree.js';
export { faultsScale, faultTrials, printSkip, reportFaults, type FaultFigures } from './faults.js';
export {
  CLAUDE_CODE_QUIET_LINE_TYPES,
  claudeCodeTranscript,
  type ClaudeCodeTranscript,
  type ClaudeCodeTranscriptOptions,
} from './transcripts/claude-code-transcript.js';
export { codexTranscript, type CodexTranscriptOptions } from './transcripts/codex-transcript.js';
export { piTranscript, type PiTranscriptOptions } from './transcripts/pi-transcript.js';
export { postgresTestUrl, uniqueSchemaName } from './postgres-test-url.js';
export {
  DSH_BIN,
  hintCommand,
  outputMatching,
  printJson,
  runDsh,
  runPrinted,
  spawnDsh,
  spawnDshOnTerminal,
  type DshOptions,
  type DshResult,
} from './run-dsh.js';
