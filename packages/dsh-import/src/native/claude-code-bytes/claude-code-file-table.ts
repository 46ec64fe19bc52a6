/**
 * `claudeCodeFileTable`: a Claude Code file's lines as `splitNativeLines` keeps them (blank lines
 * skipped, a torn last line dropped, any other line that is not a JSON object `MALFORMED_LINE`),
 * one row each in the file's `ClaudeCodeLineTable`, and — in file order — each place the text
 * `"sessionId"` ends a key (where the child's bytes may replace the session id). The lines are read
 * by the WebAssembly scanner (`scanClaudeCodeRows`); a line it declines is parsed with `JSON.parse`.
 * Where there is no WebAssembly (or it traps, or the file is past its memory) there is no table:
 * the fork takes the text path, the reference this one equals.
 * @module
 */
import { Buffer } from 'node:buffer';
import { claudeCodeSkeletonOf } from './claude-code-skeleton.js';
import { ClaudeCodeLineTable, LINE_END, LINE_INDEX, LINE_START } from './claude-code-line-table.js';
import { malformedLine, skippedLineWarning } from '../native-line.js';
import { patchPairs } from './patch-pairs.js';
import { scanClaudeCodeRows, type ScanInPlace } from './scan-claude-code-rows.js';

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
export type ClaudeCodeFileTable = { table: ClaudeCodeLineTable; sessionIdKeys: ArrayLike<number>; writable: WritableBytes };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The parsed object of a declined line; undefined for a blank line, a torn last line and (named in
 * `skipped`) a malformed one — without `skipped` (strict) that one throws `MALFORMED_LINE`.
 */
function declinedLine(buffer: Buffer, index: number, start: number, end: number, skipped?: string[]): Record<string, unknown> | undefined {
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
  if (end < buffer.length) {
    if (skipped === undefined) throw malformedLine(index, line);
    skipped.push(skippedLineWarning(index, line));
  }
  return undefined;
}

/** Each place in `[start, end)` where the text `"sessionId"` stands (a superset of where it ends a key). */
function sessionIdTexts(buffer: Buffer, start: number, end: number, into: number[]): void {
  for (let at = buffer.indexOf(SESSION_ID_KEY, start); at >= 0 && at < end; at = buffer.indexOf(SESSION_ID_KEY, at + 1)) into.push(at);
}

/**
 * The table of the Claude Code file `buffer` (valid UTF-8; malformed lines as `declinedLine` takes
 * them), or undefined where the WebAssembly scanner cannot read it; `inPlace`: the scan the file was read
 * into; `maxMemoryBytes`: the fork's memory bound (`FILE_TOO_LARGE` past it).
 */
export function claudeCodeFileTable(
  buffer: Buffer,
  skipped?: string[],
  inPlace?: ScanInPlace,
  maxMemoryBytes?: number,
): ClaudeCodeFileTable | undefined {
  const scanned = scanClaudeCodeRows(buffer, inPlace, maxMemoryBytes);
  if (scanned === undefined) return undefined;
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
    const parsed = declinedLine(buffer, table.at(row, LINE_INDEX), start, end, skipped);
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
