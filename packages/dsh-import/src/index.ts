/**
 * @module dsh-import
 * Imports Claude Code, OpenAI Codex and pi session files as dsh sessions: the main line and every
 * branch as an exact fork child, each artifact valid in the current format. Imports dsh-codec only.
 */
export { importTranscript, type ImportOptions, type ImportResult } from './import-transcript.js';
export { TRANSCRIPT_FORMATS, type TranscriptFormat } from './detect-format.js';
export type { ImportedSession } from './build-sessions.js';
/** Links sessions of several files: subagents to their spawning call, Codex fork rollouts to their parent. */
export { linkImports, type LinkLookup } from './link-imports.js';
/** The ignorable `import/source` event every imported session starts with, and its reader. */
export { IMPORT_SOURCE_EVENT, importSourceOf, type ImportSource } from './import-source.js';
export { ImportError, IMPORT_ERROR_CODES, type ImportErrorCode } from './import-error.js';
export { CLAUDE_CODE_EFFECTS } from './claude-code/claude-code-effects.js';
export { CODEX_EFFECTS } from './codex/codex-effects.js';
export { PI_EFFECTS } from './pi/pi-effects.js';
/** Native fork: a Claude Code, Codex or pi file → the child file in the same format, dsh's closers appended. */
export {
  forkNativeFile,
  forkNativeTranscript,
  type NativeFileFork,
  type NativeFork,
  type NativeForkOptions,
} from './native/fork-native-transcript.js';
export { nativeResumeCommand } from './native/native-resume-command.js';
/** `dsh show FILE --entries`: the main line's entries with the REF and seq `dsh fork FILE --at` takes. */
export { listNativeEntries, type NativeEntry } from './native/list-native-entries.js';
/** What reads a session file into the scanner's memory (no copy), scanned while it is read, and forks it. */
export { nativeFileReader, type NativeFileReader } from './native/claude-code-bytes/native-file-reader.js';
/** Native fork of Claude Code entries held in memory (the Claude Agent SDK's session store). */
export { forkClaudeCodeEntries, type ClaudeCodeEntriesFork } from './native/fork-claude-code-entries.js';
/** `dsh repair`: the interrupted closers to append to a file whose last step has calls without results. */
export { repairNativeTranscript, type NativeRepair } from './native/repair-native-transcript.js';
export type { OpenCall } from './native/open-calls.js';
/** `dsh export --format claude-code|codex|pi`: a model-visible history → a session file the tool resumes. */
export {
  exportNativeTranscript,
  type HistoryMessage,
  type NativeExport,
  type NativeExportOptions,
} from './native/export-native-transcript.js';
