/**
 * The native fork of a Claude Code file held as bytes, without parsing every line: each line is
 * read through its skeleton (the WebAssembly scanner `scanClaudeCodeRows`, `JSON.parse` only for a
 * line it declines), the chain to the cut and dsh's reading of it come from the same tree and reader as
 * `forkNativeTranscript`'s, and the child is the chain's own bytes (the `sessionId` pairs
 * replaced; views of the file's bytes, `claudeCodeChildChunks`) followed by the closers. Only
 * the last kept line is parsed whole (the closers copy its context).
 * Declines — returns undefined, and `forkNativeFile` takes the text path — for a file that is not
 * valid UTF-8, not a Claude Code file, a cut it does not make (`seq:N`, an unknown REF), or where
 * the scanner cannot run (no WebAssembly, as under `node --jitless`; a trap; past its memory).
 * @module
 */
import { Buffer, isUtf8 } from 'node:buffer';
import { ImportError } from '../../import-error.js';
import { CLAUDE_CODE_NATIVE } from '../claude-code-native.js';
import { ClaudeCodeLineTable, LINE_END, LINE_INDEX, LINE_START, SESSION_ID } from './claude-code-line-table.js';
import { claudeCodeFileTable } from './claude-code-file-table.js';
import type { NativeForkOptions } from '../fork-native-transcript.js';
import { nativeFileFork, type NativeFileFork } from '../native-file-fork.js';
import { nativeCut } from '../native-cut.js';
import { nativeFormatOf } from '../native-formats.js';
import { firstNativeLines } from '../first-native-lines.js';
import type { NativeLine } from '../native-line.js';
import { closerText, openCallsAt, type OpenCall } from '../open-calls.js';
import type { NativeFormat } from '../native-format.js';
import { claudeCodeEventCount } from './claude-code-event-count.js';
import { claudeCodeSkeletonChain } from './claude-code-skeleton-chain.js';
import { claudeCodeChildChunks } from './claude-code-child-chunks.js';

/** A line of the table as the general path reads it: its skeleton object, `raw` empty, `row` its row. */
type RowLine = NativeLine & { row: number };

/** Row `row` parsed whole: its text and object. */
function parsedLine(buffer: Buffer, table: ClaudeCodeLineTable, row: number): NativeLine {
  const raw = buffer.toString('utf8', table.at(row, LINE_START), table.at(row, LINE_END));
  return { index: table.at(row, LINE_INDEX), raw, value: JSON.parse(raw) as Record<string, unknown> };
}

/** A cut's kept rows, its seq in dsh's reading and the calls open there. */
type ByteCut = { kept: number[]; cut: number; closedCalls: OpenCall[] };

/**
 * The cut at the entry uuid `at`: on the file's one entry index (`claudeCodeSkeletonChain`) with the
 * reading counted from the rows (`claudeCodeEventCount`) — or, for a file or cut that index does
 * not take, through `nativeCut`'s reading of the kept lines' skeletons. Undefined for an unknown REF.
 */
function cutOf(format: NativeFormat, table: ClaudeCodeLineTable, at: string): ByteCut | undefined {
  const chain = claudeCodeSkeletonChain(table, at);
  if (chain !== undefined) {
    const reading = claudeCodeEventCount(table, chain.main);
    return { kept: chain.kept, cut: reading.count - 1, closedCalls: reading.openCalls };
  }
  const lines: RowLine[] = [];
  for (let row = 0; row < table.count; row++) lines.push({ index: table.at(row, LINE_INDEX), raw: '', value: table.skeletonAt(row), row });
  try {
    const cut = nativeCut(format, lines, at);
    return { kept: (cut.kept as RowLine[]).map((line) => line.row), cut: cut.cut, closedCalls: openCallsAt(cut.events) };
  } catch (error) {
    if (ImportError.is(error)) return undefined;
    throw error;
  }
}

/** The fork of the Claude Code file `bytes`, or undefined when this path does not make it (see the module comment). */
export function forkClaudeCodeBytes(bytes: Uint8Array, options: NativeForkOptions): NativeFileFork | undefined {
  if (/^seq:(\d+)$/.test(options.at)) return undefined;
  if (options.format !== undefined && options.format !== 'auto' && options.format !== 'claude-code') return undefined;
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The format from the first lines, before any pass over the whole file (a Codex or pi file takes the text path at once).
  const first = firstNativeLines(buffer, buffer.length);
  let format;
  try {
    format = first === undefined ? undefined : nativeFormatOf(first, options.format);
  } catch {
    return undefined;
  }
  if (format !== CLAUDE_CODE_NATIVE || !isUtf8(buffer)) return undefined;
  const warnings: string[] = [];
  const read = claudeCodeFileTable(buffer, options.strict === true ? undefined : warnings);
  if (read === undefined) return undefined;
  const { table, sessionIdKeys, writable } = read;
  const cut = cutOf(format, table, options.at);
  if (cut === undefined) return undefined;
  const { kept, closedCalls } = cut;
  let parentSessionId: string | undefined;
  for (let row = 0; row < table.count && parentSessionId === undefined; row++) parentSessionId = table.stringAt(row, SESSION_ID);
  const sessionId = typeof options.sessionId === 'string' ? options.sessionId : options.sessionId(format.format);
  let previous = parsedLine(buffer, table, kept[kept.length - 1] as number);
  const closers: string[] = [];
  for (const call of closedCalls) {
    previous = format.closer(
      { callId: call.callId, name: call.name, text: closerText('forked', call), isError: true },
      { previous, sessionId, now: options.now, salt: `fork:${options.at}` },
    );
    closers.push(`${previous.raw}\n`);
  }
  const facts = {
    format: format.format,
    sessionId,
    fileName: format.fileName(sessionId, options.now),
    parentSessionId,
    cut: cut.cut,
    inheritedEntryCount: kept.length,
    closedCalls,
    warnings,
  };
  // Without a session id in the file, only its first line is rewritten (as the text path does).
  const chunks = claudeCodeChildChunks(
    buffer,
    table,
    kept,
    sessionIdKeys,
    parentSessionId !== undefined,
    parentSessionId ?? '',
    sessionId,
    Buffer.from(closers.join(''), 'utf8'),
    writable,
  );
  return nativeFileFork(facts, chunks);
}
