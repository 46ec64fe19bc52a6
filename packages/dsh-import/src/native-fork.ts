/**
 * @module dsh-import/native-fork
 * The native fork of a session file alone (what `dsh fork FILE` calls), without the import's
 * linking and dsh-codec's schemas and validators, so a process that only forks a file starts quickly.
 * The main entry exports the same names.
 */
export { forkNativeFile, nativeResumeCommand, type NativeFileFork, type NativeForkOptions } from './native/fork-native-transcript.js';
export { nativeFileBuffer, nativeFileRead } from './native/claude-code-bytes/scan-claude-code-rows.js';
export { ImportError, type ImportErrorCode } from './import-error.js';
export type { TranscriptFormat } from './detect-format.js';
