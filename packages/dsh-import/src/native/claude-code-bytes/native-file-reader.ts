/**
 * `nativeFileReader(size)`: the one value that reads a session file for a native fork — the buffer
 * to read it into (the WebAssembly scanner's memory, so the bytes are scanned where they stand and
 * never copied), `onRead` after each chunk (the scanner reads the whole lines already there while
 * the rest is read), and `fork`. The fork takes the byte path when it can; only otherwise (a Codex
 * or pi file, `seq:N`, a cut the entry index does not make, no WebAssembly) does it load the
 * import pipeline and the text path, the reference. The scan in progress lives in this value.
 * @module
 */
import { ImportError } from '../../import-error.js';
import type { NativeForkOptions } from '../native-fork-types.js';
import { checkForkAt, type NativeFileFork } from '../native-file-fork.js';
import { claudeCodeChild, entryCut, readClaudeCodeBytes } from './claude-code-byte-fork.js';
import { ScanInPlace } from './scan-claude-code-rows.js';

/** What reads one session file and forks it. */
export type NativeFileReader = {
  /** The `size` bytes to read the file into. */
  readonly bytes: Uint8Array;
  /** Says the first `length` bytes of `bytes` are read (and will not change): their whole lines are scanned now. */
  onRead(length: number): void;
  /**
   * The fork of `bytes` (all `size` of them: read the whole file first), what `forkNativeFile` gives
   * for them: the same child, facts and errors. Once per reader: the fork writes the child's session
   * ids over `bytes`, and its `chunks` are views of them.
   */
  fork(options: NativeForkOptions): Promise<NativeFileFork>;
};

/** A reader of a session file of `size` bytes (see the module comment). */
export function nativeFileReader(size: number): NativeFileReader {
  const scan = ScanInPlace.start(size);
  const bytes = scan?.bytes ?? new Uint8Array(size);
  let forked = false;
  return {
    bytes,
    onRead(length) {
      scan?.read(length);
    },
    async fork(options) {
      checkForkAt(options.at);
      if (forked)
        throw new ImportError(
          'INVALID_OPTION',
          'fork: expected one fork per reader (the first wrote its child over the bytes), received a second',
        );
      forked = true;
      const read = readClaudeCodeBytes(bytes, options, scan);
      const cut = read === undefined ? undefined : entryCut(read.table, options.at);
      if (read !== undefined && cut !== undefined) {
        // The closers (and the codec's texts they hold) load only for a cut that leaves calls open.
        const closers = cut.closedCalls.length === 0 ? undefined : (await import('./claude-code-closers.js')).claudeCodeClosers;
        return claudeCodeChild(read, cut, options, closers);
      }
      const { forkFileRead } = await import('../fork-native-transcript.js');
      return forkFileRead(bytes, options, read);
    },
  };
}
