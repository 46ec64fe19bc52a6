/**
 * The types of a native fork: its options and its child (`forkNativeTranscript`'s result), apart
 * from the modules that make it so the byte path and the text path both name them without importing
 * each other.
 * @module
 */
import type { TranscriptFormat } from '../detect-format.js';
import type { OpenCall } from './open-calls.js';

/** Options of a native fork: where to cut, the child's id, the time its closers carry. */
export type NativeForkOptions = {
  format?: 'auto' | TranscriptFormat;
  /** The tool's entry id (Claude `uuid`, pi `id`, Codex `ordinal`) or `seq:N`. */
  at: string;
  /** The child's session id, or a function choosing it once the format is known (Claude: UUID v4, Codex and pi: v7). */
  sessionId: string | ((format: TranscriptFormat) => string);
  /** Epoch ms for the closers' timestamps (and pi/Codex file names). */
  now: number;
  /** pi only: the source file's path, recorded as the child header's `parentSession`. */
  parentFile?: string;
  /** Refuse a malformed line (`MALFORMED_LINE`) instead of skipping it with a warning, as the tools do. */
  strict?: boolean;
  /**
   * The memory a fork of a file's bytes may use (default 4× the file's size, at least 64 MiB):
   * `FILE_TOO_LARGE`, naming what it would need, for a file of lines too many for it.
   */
  maxMemoryBytes?: number;
};

/** The child: its text and file name, what it came from, where it was cut, what was closed. */
export type NativeFork = {
  format: TranscriptFormat;
  sessionId: string;
  fileName: string;
  text: string;
  parentSessionId: string | undefined;
  /** The seq of the cut in dsh's reading (-1: nothing inherited). */
  cut: number;
  /** Source lines copied into the child (closers excluded). */
  inheritedEntryCount: number;
  closedCalls: OpenCall[];
  /** The malformed lines skipped (never copied into the child), each named. */
  warnings: string[];
};
