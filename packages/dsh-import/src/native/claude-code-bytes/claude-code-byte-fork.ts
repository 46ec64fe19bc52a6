/**
 * The steps of the native fork of a Claude Code file held as bytes, without parsing every line:
 * `readClaudeCodeBytes` reads each line through its skeleton (the WebAssembly scanner,
 * `JSON.parse` only for a line it declines) into the file's line table; `entryCut` cuts on the
 * file's one entry index with dsh's reading counted from the rows; `claudeCodeChild` is the chain's
 * own bytes (the `sessionId` pairs replaced; views of the file's bytes) followed by the closers.
 * Only the last kept line is parsed whole (the closers copy its context). None of them loads the
 * import pipeline, the format's text-path reading or the codec's closer texts: `forkClaudeCodeBytes`
 * adds the general cut, `nativeFileReader` loads it only when the entry index does not cut, and
 * the closers (`claude-code-closers.ts`) only when the cut leaves calls open.
 * @module
 */
import { Buffer, isUtf8 } from 'node:buffer';
import { ImportError } from '../../import-error.js';
import type { NativeForkOptions } from '../native-fork-types.js';
import { nativeFileFork, type NativeFileFork } from '../native-file-fork.js';
import { detectFormat } from '../../detect-format.js';
import { firstNativeLines } from '../first-native-lines.js';
import type { NativeLine } from '../native-line.js';
import type { OpenCall } from '../open-calls.js';
import {
  ClaudeCodeLineTable,
  CWD,
  LINE_END,
  LINE_INDEX,
  LINE_START,
  MESSAGE,
  MESSAGE_ID,
  MODEL,
  SESSION_ID,
  TYPE,
} from './claude-code-line-table.js';
import { claudeCodeFileTable, type ClaudeCodeFileTable } from './claude-code-file-table.js';
import { claudeCodeEventCount } from './claude-code-event-count.js';
import { claudeCodeSkeletonChain } from './claude-code-skeleton-chain.js';
import { claudeCodeChildChunks } from './claude-code-child-chunks.js';
import type { ScanInPlace } from './scan-claude-code-rows.js';
import type { ClaudeCodeClosers } from './claude-code-closers.js';

/** A Claude Code file read into its line table: the bytes, the table and the malformed lines skipped. */
export type ClaudeCodeBytes = ClaudeCodeFileTable & { buffer: Buffer; warnings: string[] };

/** A cut's kept rows, its seq in dsh's reading and the calls open there. */
export type ByteCut = { kept: number[]; cut: number; closedCalls: OpenCall[] };

/**
 * The file `bytes` read into its line table, or undefined when the byte path does not take it: a
 * `seq:N` cut, a file that is not valid UTF-8 or not Claude Code's, or where the scanner cannot run
 * (no WebAssembly, as under `node --jitless`; a trap; past its memory). `inPlace`: the scan the
 * file was read into (`nativeFileReader`), finished where it is. `FILE_TOO_LARGE` past the fork's
 * memory bound (`fork-memory-bound.ts`).
 */
export function readClaudeCodeBytes(bytes: Uint8Array, options: NativeForkOptions, inPlace?: ScanInPlace): ClaudeCodeBytes | undefined {
  const max = options.maxMemoryBytes;
  if (max !== undefined && !(Number.isSafeInteger(max) && max > 0))
    throw new ImportError('INVALID_OPTION', `maxMemoryBytes: expected a positive whole number of bytes, received ${String(max)}`);
  if (/^seq:(\d+)$/.test(options.at)) return undefined;
  if (options.format !== undefined && options.format !== 'auto' && options.format !== 'claude-code') return undefined;
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The format from the first lines, before any pass over the whole file (a Codex or pi file takes the text path at once).
  const first = firstNativeLines(buffer, buffer.length);
  if (first === undefined) return undefined;
  // What `nativeFormatOf` decides, for Claude Code alone: a forced format the first lines do not contradict, else recognised.
  const detected = detectFormat(first.slice(0, 20).map((line) => ({ line: line.index + 1, value: line.value })));
  const claude = options.format === 'claude-code' ? detected === undefined || detected === 'claude-code' : detected === 'claude-code';
  if (!claude || !isUtf8(buffer)) return undefined;
  const warnings: string[] = [];
  const read = claudeCodeFileTable(buffer, options.strict === true ? undefined : warnings, inPlace, options.maxMemoryBytes);
  return read === undefined ? undefined : { ...read, buffer, warnings };
}

/**
 * How the child of `kept` holds the responses it holds lines of: `whole`; `last` when only the cut
 * entry's response misses lines of the file (the entry holds its first blocks); `inside` when an
 * earlier one does (a result answering the first calls of a response that goes on after it).
 */
function responsesHeld(table: ClaudeCodeLineTable, kept: readonly number[]): 'whole' | 'last' | 'inside' {
  const assistant = table.keys().assistant;
  const inChild = new Uint8Array(table.count);
  for (const row of kept) inChild[row] = 1;
  const ids = new Set<number>();
  for (const row of kept) if (table.at(row, TYPE) === assistant && table.at(row, MESSAGE_ID) >= 0) ids.add(table.at(row, MESSAGE_ID));
  const missing = new Set<number>();
  for (let row = 0; row < table.count; row++)
    if (inChild[row] === 0 && table.at(row, TYPE) === assistant && ids.has(table.at(row, MESSAGE_ID)))
      missing.add(table.at(row, MESSAGE_ID));
  if (missing.size === 0) return 'whole';
  const entry = kept[kept.length - 1] as number;
  const own = table.at(entry, TYPE) === assistant ? table.at(entry, MESSAGE_ID) : -1;
  if (missing.size > 1 || !missing.has(own)) return 'inside';
  // A user line (a result) after the response's first kept line: the child interleaves it with that response's calls.
  const user = table.keys().user;
  let within = false;
  for (const row of kept) {
    if (within && table.at(row, TYPE) === user) return 'inside';
    within ||= table.at(row, TYPE) === assistant && table.at(row, MESSAGE_ID) === own;
  }
  return 'last';
}

/**
 * The cut at the entry uuid `at` on the file's one entry index, or undefined for a file or cut that
 * index does not take — also where the child holds part of a response (`responsesHeld`) other than
 * its last calls: a result answering the first calls of a response that goes on, or the first blocks
 * of one without a call (a thinking or text line). Their seq is the last event the child holds in
 * the whole line's reading (`cutInReading`): the general cut.
 */
export function entryCut(table: ClaudeCodeLineTable, at: string): ByteCut | undefined {
  const chain = claudeCodeSkeletonChain(table, at);
  if (chain === undefined) return undefined;
  const held = responsesHeld(table, chain.kept);
  if (held === 'inside') return undefined;
  const reading = claudeCodeEventCount(table, chain.main);
  // The first blocks of a response and no call: the cut is before the response, which a count does not place.
  if (held === 'last' && reading.openCalls.length === 0) return undefined;
  // The cut entry changes the cwd or model while its response goes on: the whole line's reading places that
  // `session/config` after the response's later calls, so the count is not its seq — the general cut places it.
  if (held === 'last' && lastEntryConfigures(table, chain.main)) return undefined;
  return { kept: chain.kept, cut: reading.count - 1, closedCalls: reading.openCalls };
}

/** Whether the last of `entries` makes the reader's config item: a cwd, or an assistant line's model, other than the last one seen (`claudeCodeItems`' rule). */
function lastEntryConfigures(table: ClaudeCodeLineTable, entries: readonly number[]): boolean {
  const { assistant, synthetic } = table.keys();
  let cwd = -1;
  let model = -1;
  let changes = false;
  for (const row of entries) {
    changes = false;
    const entryCwd = table.at(row, CWD);
    if (entryCwd >= 0 && entryCwd !== cwd) {
      cwd = entryCwd;
      changes = true;
    }
    if (table.at(row, TYPE) !== assistant || table.at(row, MESSAGE) !== 1) continue;
    const entryModel = table.at(row, MODEL);
    if (entryModel >= 0 && entryModel !== synthetic && entryModel !== model) {
      model = entryModel;
      changes = true;
    }
  }
  return changes;
}

/** Row `row` parsed whole: its text and object. */
function parsedLine(buffer: Buffer, table: ClaudeCodeLineTable, row: number): NativeLine {
  const raw = buffer.toString('utf8', table.at(row, LINE_START), table.at(row, LINE_END));
  return { index: table.at(row, LINE_INDEX), raw, value: JSON.parse(raw) as Record<string, unknown> };
}

/**
 * The child of `read` at `cut`: the kept lines as views of the file's bytes (session ids patched
 * where they stand), then the closers `closers` writes (called only when the cut leaves calls open;
 * undefined when the caller knows it leaves none).
 */
export function claudeCodeChild(
  read: ClaudeCodeBytes,
  cut: ByteCut,
  options: NativeForkOptions,
  closers: ClaudeCodeClosers | undefined,
): NativeFileFork {
  const { buffer, table } = read;
  const { kept, closedCalls } = cut;
  let parentSessionId: string | undefined;
  for (let row = 0; row < table.count && parentSessionId === undefined; row++) parentSessionId = table.stringAt(row, SESSION_ID);
  const sessionId = typeof options.sessionId === 'string' ? options.sessionId : options.sessionId('claude-code');
  let closerLines = '';
  if (closedCalls.length > 0) {
    if (closers === undefined) throw new TypeError('claudeCodeChild: expected the closers for a cut that leaves calls open, received none');
    closerLines = closers(parsedLine(buffer, table, kept[kept.length - 1] as number), closedCalls, {
      sessionId,
      now: options.now,
      at: options.at,
    });
  }
  const facts = {
    format: 'claude-code' as const,
    sessionId,
    // Claude Code's layout (`CLAUDE_CODE_NATIVE.fileName`), written here so the byte path loads no text-path format.
    fileName: `${sessionId}.jsonl`,
    parentSessionId,
    cut: cut.cut,
    inheritedEntryCount: kept.length,
    closedCalls,
    warnings: read.warnings,
  };
  // Without a session id in the file, only its first line is rewritten (as the text path does).
  const chunks = claudeCodeChildChunks(
    buffer,
    table,
    kept,
    read.sessionIdKeys,
    parentSessionId !== undefined,
    parentSessionId ?? '',
    sessionId,
    Buffer.from(closerLines, 'utf8'),
    read.writable,
  );
  return nativeFileFork(facts, chunks);
}
