/**
 * `forkClaudeCodeBytes`, `forkClaudeCodeRead`: the byte path whole (`claude-code-byte-fork.ts`'s steps) — the cut on the
 * entry index, or for a file or cut that index does not take (an entry uuid that repeats, a cut
 * at a line that is not an entry) through `nativeCut`'s reading of the kept lines' skeletons, which
 * loads the import pipeline. Undefined when the byte path does not make the fork (then
 * `forkNativeFile` takes the text path, the reference this one equals).
 * @module
 */
import { ImportError } from '../../import-error.js';
import type { NativeForkOptions } from '../native-fork-types.js';
import type { NativeFileFork } from '../native-file-fork.js';
import { CLAUDE_CODE_NATIVE } from '../claude-code-native.js';
import { nativeCut } from '../native-cut.js';
import type { NativeLine } from '../native-line.js';
import { openCallsAt } from '../open-calls.js';
import { LINE_INDEX, type ClaudeCodeLineTable } from './claude-code-line-table.js';
import { claudeCodeClosers } from './claude-code-closers.js';
import { claudeCodeChild, entryCut, readClaudeCodeBytes, type ByteCut, type ClaudeCodeBytes } from './claude-code-byte-fork.js';

/** A line of the table as the general path reads it: its skeleton object, `raw` empty, `row` its row. */
type RowLine = NativeLine & { row: number };

/** The cut at `at` through `nativeCut`'s reading of the rows' skeletons; undefined for an unknown REF. */
function generalCut(read: ClaudeCodeBytes, at: string): ByteCut | undefined {
  const table: ClaudeCodeLineTable = read.table;
  const lines: RowLine[] = [];
  for (let row = 0; row < table.count; row++) lines.push({ index: table.at(row, LINE_INDEX), raw: '', value: table.skeletonAt(row), row });
  try {
    const cut = nativeCut(CLAUDE_CODE_NATIVE, lines, at);
    return { kept: (cut.kept as RowLine[]).map((line) => line.row), cut: cut.cut, closedCalls: openCallsAt(cut.events) };
  } catch (error) {
    if (ImportError.is(error)) return undefined;
    throw error;
  }
}

/** The fork of the Claude Code file `bytes`, or undefined when this path does not make it. */
export function forkClaudeCodeBytes(bytes: Uint8Array, options: NativeForkOptions): NativeFileFork | undefined {
  const read = readClaudeCodeBytes(bytes, options);
  return read === undefined ? undefined : forkClaudeCodeRead(read, options);
}

/** `forkClaudeCodeBytes` of a file read already (`readClaudeCodeBytes`). */
export function forkClaudeCodeRead(read: ClaudeCodeBytes, options: NativeForkOptions): NativeFileFork | undefined {
  const cut = entryCut(read.table, options.at) ?? generalCut(read, options.at);
  return cut === undefined ? undefined : claudeCodeChild(read, cut, options, claudeCodeClosers);
}
