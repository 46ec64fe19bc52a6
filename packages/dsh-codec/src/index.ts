/**
 * @module dsh-codec
 * The persisted dsh session format: V7 types, per-version validators V0–V7,
 * migrations and the JSONL codec. Reads any released version; writes only the current one.
 */
export type {
  AssistantMessage,
  CloseCause,
  ContentBlock,
  CoreEvent,
  CoreEventDataMap,
  CoreEventType,
  DshEvent,
  DshPluginEventType,
  ForkRequest,
  FormatVersion,
  JsonObject,
  JsonValue,
  OtherPluginEventType,
  PluginEvent,
  PluginEventType,
  ReasoningBlock,
  SessionArtifact,
  SessionConfig,
  SessionEvent,
  SessionHeader,
  SealedSegment,
  SessionNoteData,
  SurfaceOp,
  ToolEffect,
  ToolResultMessage,
  TurnEndReason,
  UserMessage,
  ValidationIssue,
} from './types.js';
export { CODEC_ERROR_CODES, CodecError, type CodecErrorCode } from './codec-error.js';
export {
  syntheticResultError,
  syntheticResultId,
  syntheticResultMessage,
  syntheticResultText,
  type CloserOptions,
} from './synthetic-results.js';
export {
  FORKED_WORKSPACE_AT_CUT_SENTENCE,
  WORKSPACE_STALE_MAX_PATHS,
  workspaceMovedNote,
  workspaceMovedNoteText,
  workspaceStaleNote,
  workspaceStaleNoteText,
} from './v6/workspace-texts.js';
export { CURRENT_FORMAT_VERSION } from './current-format-version.js';
export { copyLosslessJson, isLosslessJson } from './is-lossless-json.js';
export { FrozenJson, ownedJson } from './frozen-json.js';
export { encodeHeader } from './encode-header.js';
export { encodeEvent, serializeEvent } from './encode-event.js';
export { encodeJsonl } from './encode-jsonl.js';
export { encodeJsonlAtVersion, WRITABLE_FORMAT_VERSIONS } from './encode-jsonl-at-version.js';
export { decodeJsonl, type DecodedLog, type DecodeOptions, type TornTail } from './decode-jsonl.js';
export type { LineEndings } from './split-lines.js';
export { safeDecodeJsonl } from './safe-decode-jsonl.js';
export { validate } from './validate.js';
export { migrate } from './migrate.js';
export { createEventChecker, isCoreEventType, type EventChecker } from './v7/create-event-checker.js';
export { isPluginEvent } from './is-plugin-event.js';
