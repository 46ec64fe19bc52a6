/**
 * @module dsh-import/native-fork
 * The native fork of a session file alone (what `dsh fork FILE` calls), without the import's
 * linking and dsh-codec's schemas and validators, so a process that only forks a file starts quickly.
 * The import pipeline and the text path load only when a fork takes that path. The main entry
 * exports the same names.
 */
export { nativeFileReader, type NativeFileReader } from './native/claude-code-bytes/native-file-reader.js';
export { nativeResumeCommand } from './native/native-resume-command.js';
export type { NativeFileFork, NativeForkOptions } from './native/fork-native-transcript.js';
export { ImportError, type ImportErrorCode } from './import-error.js';
export type { TranscriptFormat } from './detect-format.js';
