/**
 * `claudeCodeFileTable`: a Claude Code file's lines as `splitNativeLines` keeps them (blank lines
 * skipped, a torn last line dropped, any other line that is not a JSON object `MALFORMED_LINE`),
 * one row each in the file's `ClaudeCodeLineTable`, and — in file order — each place the text
 * `"sessionId"` ends a key (where the child's bytes may replace the session id). The lines are read
 * by the WebAssembly scanner (`scanClaudeCodeRows`), or where there is none by the one in
 * JavaScript (`ClaudeCodeLineScanner`); a line a scanner declines is parsed with `JSON.parse`.
 * @module
 */
import { Buffer } from 'node:buffer';
import { ByteStringTable } from './byte-string-table.js';
import { claudeCodeSkeletonOf } from './claude-code-skeleton.js';
import { ClaudeCodeLineTable, LINE_END, LINE_INDEX, LINE_START } from './claude-code-line-table.js';
import { malformedLine } from './native-line.js';
import { patchPairs } from './patch-pairs.js';
import { scanClaudeCodeRows } from './scan-claude-code-rows.js';
import { ClaudeCodeLineScanner } from './scan-claude-code-skeleton.js';

const NEWLINE = 10;
const SESSION_ID_KEY = Buffer.from('"sessionId"', 'utf8');

/**
 * The file's bytes (and some bytes past them, at the same offsets) in the scanner's memory, which
 * the caller may write over, and how to replace the session id pairs there.
 */
export type WritableBytes = {
  bytes: Buffer;
  /** Writes `replacement` over each `pattern` (as long) that starts at a `"sessionId"` key before `limit`. */
  patch(pattern: Uint8Array, replacement: Uint8Array, limit: number): void;
};

/**
 * A file's rows and where `"sessionId"` ends a key (file offsets, ascending); `writable`: the bytes
 * the caller may write over, where there are some (the WebAssembly scanner's memory).
 */
export type ClaudeCodeFileTable = { table: ClaudeCodeLineTable; sessionIdKeys: ArrayLike<number>; writable?: WritableBytes };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The parsed object of a declined line; undefined for a blank line; throws `MALFORMED_LINE` for another, unless it is a torn last line (undefined). */
function declinedLine(buffer: Buffer, index: number, start: number, end: number): Record<string, unknown> | undefined {
  const line = buffer.toString('utf8', start, end);
  if (line.trim() === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    parsed = undefined;
  }
  if (isRecord(parsed)) return parsed;
  // The last line of a file without a final newline may be torn: dropped, as the text path does.
  if (end < buffer.length) throw malformedLine(index, line);
  return undefined;
}

/** Each place in `[start, end)` where the text `"sessionId"` stands (a superset of where it ends a key). */
function sessionIdTexts(buffer: Buffer, start: number, end: number, into: number[]): void {
  for (let at = buffer.indexOf(SESSION_ID_KEY, start); at >= 0 && at < end; at = buffer.indexOf(SESSION_ID_KEY, at + 1)) into.push(at);
}

/** The table of the Claude Code file `buffer` (valid UTF-8); `webAssembly: false` reads it with the scanner in JavaScript. */
export function claudeCodeFileTable(buffer: Buffer, { webAssembly = true }: { webAssembly?: boolean } = {}): ClaudeCodeFileTable {
  const scanned = webAssembly ? scanClaudeCodeRows(buffer) : undefined;
  if (scanned === undefined) return scriptTable(buffer);
  const { table, declined, input } = scanned;
  const found: number[] = [];
  // The keys of the lines the scanner read are patched in the module; those of the lines it declined here.
  const writable: WritableBytes = {
    bytes: input,
    patch(pattern, replacement, limit) {
      scanned.patchSessionIds(pattern, replacement, limit);
      patchPairs(input, found, pattern, replacement, limit);
    },
  };
  if (declined.length === 0) return { table, sessionIdKeys: scanned.sessionIdKeys, writable };
  const dropped: number[] = [];
  for (const row of declined) {
    const start = table.at(row, LINE_START);
    const end = table.at(row, LINE_END);
    const parsed = declinedLine(buffer, table.at(row, LINE_INDEX), start, end);
    if (parsed === undefined) dropped.push(row);
    else {
      table.writeSkeleton(row, claudeCodeSkeletonOf(parsed));
      sessionIdTexts(buffer, start, end, found);
    }
  }
  if (dropped.length > 0) table.dropRows(dropped);
  const sessionIdKeys = found.length === 0 ? scanned.sessionIdKeys : [...scanned.sessionIdKeys, ...found].sort((a, b) => a - b);
  return { table, sessionIdKeys, writable };
}

/** The table read by the scanner in JavaScript. */
function scriptTable(buffer: Buffer): ClaudeCodeFileTable {
  let lines = 1;
  for (let at = buffer.indexOf(NEWLINE); at >= 0; at = buffer.indexOf(NEWLINE, at + 1)) lines++;
  const table = new ClaudeCodeLineTable(new ByteStringTable(buffer), lines);
  const scanner = new ClaudeCodeLineScanner(table, buffer);
  const sessionIdKeys = scanner.watched;
  for (let pos = 0, index = 0; ; index++) {
    const newline = buffer.indexOf(NEWLINE, pos);
    if (newline < 0 && pos === buffer.length) break;
    const end = newline < 0 ? buffer.length : newline;
    if (!scanner.line(index, pos, end)) {
      const parsed = declinedLine(buffer, index, pos, end);
      if (parsed !== undefined) {
        table.pushSkeleton(claudeCodeSkeletonOf(parsed), index, pos, end);
        sessionIdTexts(buffer, pos, end, sessionIdKeys);
      }
    }
    if (newline < 0) break;
    pos = newline + 1;
  }
  return { table, sessionIdKeys };
}
