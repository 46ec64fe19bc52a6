/**
 * @module dsh-codec
 * The persisted dsh session format: V4 types, per-version validators V0–V4, migrations and the
 * JSONL codec. Reads any released version; writes only the current one.
 */
export type {
  AssistantMessage,
  CloseCause,
  ContentBlock,
  CoreEvent,
  CoreEventDataMap,
  CoreEventType,
  FormatVersion,
  JsonObject,
  JsonValue,
  SessionArtifact,
  SessionConfig,
  SessionEvent,
  SessionHeader,
  SurfaceOp,
  ToolEffect,
  ToolResultMessage,
  TurnEndReason,
  UserMessage,
  ValidationIssue,
} from './types.js';
export { CodecError, type CodecErrorCode } from './codec-error.js';
export {
  syntheticResultError,
  syntheticResultId,
  syntheticResultMessage,
  syntheticResultText,
} from './synthetic-results.js';

/** The format version this release writes. */
export const CURRENT_FORMAT_VERSION = 4;
