/**
 * The native fork of a Claude Code file held as bytes, without parsing every line: each line is
 * read through its skeleton (`scanClaudeCodeSkeleton`, `JSON.parse` only for a line the scanner
 * declines), the chain to the cut and dsh's reading of it come from the same tree and reader as
 * `forkNativeTranscript`'s, and the child is the chain's own bytes (the `sessionId` pairs replaced)
 * followed by the closers. Only the last kept line is parsed whole (the closers copy its context).
 * Declines — returns undefined, and `forkNativeFile` takes the text path — for a file that is not
 * valid UTF-8, not a Claude Code file, or a cut it does not make (`seq:N`, an unknown REF).
 * @module
 */
import { Buffer, isUtf8 } from 'node:buffer';
import { ImportError } from '../import-error.js';
import { CLAUDE_CODE_NATIVE } from './claude-code-native.js';
import { claudeCodeSkeletonOf, type ClaudeCodeSkeleton } from './claude-code-skeleton.js';
import { claudeCodeSkeletonScanner } from './scan-claude-code-skeleton.js';
import type { NativeFileFork, NativeForkOptions } from './fork-native-transcript.js';
import { nativeCut } from './native-cut.js';
import { nativeFormatOf } from './native-formats.js';
import { malformedLine, type NativeLine } from './native-line.js';
import { closerText, openCallsAt, type OpenCall } from './open-calls.js';
import type { NativeFormat } from './native-format.js';
import { claudeCodeEventCount } from './claude-code-event-count.js';
import { claudeCodeSkeletonChain } from './claude-code-skeleton-chain.js';

/** A line read by its bytes: `raw` stays empty, `[start, end)` is where it stands in the file. */
type ByteLine = NativeLine & { start: number; end: number };

const NEWLINE = 10;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The file's lines as `splitNativeLines` keeps them (blank lines skipped, a torn last line dropped,
 * any other line that is not a JSON object `MALFORMED_LINE`), each valued by its skeleton.
 */
function byteLines(buffer: Buffer): ByteLine[] {
  const scan = claudeCodeSkeletonScanner(buffer);
  const lines: ByteLine[] = [];
  for (let pos = 0, index = 0; ; index++) {
    const newline = buffer.indexOf(NEWLINE, pos);
    if (newline < 0 && pos === buffer.length) break;
    const end = newline < 0 ? buffer.length : newline;
    let value: Record<string, unknown> | undefined = buffer[pos] === 123 ? scan(pos, end) : undefined;
    if (value === undefined) {
      const line = buffer.toString('utf8', pos, end);
      if (line.trim() !== '') {
        let parsed: unknown;
        try {
          parsed = JSON.parse(line);
        } catch {
          parsed = undefined;
        }
        if (isRecord(parsed)) value = claudeCodeSkeletonOf(parsed);
        // The last line of a file without a final newline may be torn: dropped, as the text path does.
        else if (newline >= 0) throw malformedLine(index, line);
      }
    }
    if (value !== undefined) lines.push({ index, raw: '', value, start: pos, end });
    if (newline < 0) break;
    pos = newline + 1;
  }
  return lines;
}

/** A line parsed whole: its text and object. */
function parsedLine(buffer: Buffer, line: ByteLine): NativeLine {
  const raw = buffer.toString('utf8', line.start, line.end);
  return { index: line.index, raw, value: JSON.parse(raw) as Record<string, unknown> };
}

/**
 * The child's bytes: each kept line as written, every `"sessionId":"<from>"` in it (only in lines
 * `rewrite` accepts) replaced by `"sessionId":"<to>"` exactly as `replaceIdFields` does on text,
 * each line ending in `\n`; then `tail`. Runs of adjacent kept lines are copied in one piece; a
 * replacement of the same length (a UUID for a UUID) is written over the copy, so it does not
 * split the run.
 */
function childBytes(
  buffer: Buffer,
  kept: readonly ByteLine[],
  rewrite: (line: ByteLine) => boolean,
  from: string,
  to: string,
  tail: Buffer,
): Buffer {
  const pattern = Buffer.from(`"sessionId":${JSON.stringify(from)}`, 'utf8');
  const replacement = Buffer.from(`"sessionId":${JSON.stringify(to)}`, 'utf8');
  const inPlace = replacement.length === pattern.length;
  // Pieces of the output in order: a source range [start, end) when start >= 0, else an inserted piece (-1: the replacement, -2: a newline).
  const starts: number[] = [];
  const ends: number[] = [];
  // Output offsets where the replacement is written over the copied bytes.
  const patches: number[] = [];
  let size = 0;
  const copy = (start: number, end: number): void => {
    const last = starts.length - 1;
    if (last >= 0 && (starts[last] as number) >= 0 && ends[last] === start) ends[last] = end;
    else if (end > start) {
      starts.push(start);
      ends.push(end);
    }
    size += end - start;
  };
  const insert = (code: number, length: number): void => {
    starts.push(code);
    ends.push(code);
    size += length;
  };
  // The next occurrence at or after the line being copied (Infinity: none left in the file).
  const next = (at: number): number => {
    const found = buffer.indexOf(pattern, at);
    return found < 0 ? Number.POSITIVE_INFINITY : found;
  };
  let found = -1;
  for (const line of kept) {
    let at = line.start;
    if (rewrite(line)) {
      if (found < at) found = next(at);
      while (found < line.end) {
        if (inPlace) patches.push(size + found - at);
        else {
          copy(at, found);
          insert(-1, replacement.length);
          at = found + pattern.length;
        }
        found = next(found + pattern.length);
      }
    }
    // The line's own newline is copied with it when the file has one there.
    if (line.end < buffer.length) copy(at, line.end + 1);
    else {
      copy(at, line.end);
      insert(-2, 1);
    }
  }
  const out = Buffer.allocUnsafe(size + tail.length);
  let offset = 0;
  for (let i = 0; i < starts.length; i++) {
    const start = starts[i] as number;
    if (start >= 0) offset += buffer.copy(out, offset, start, ends[i]);
    else if (start === -1) {
      out.set(replacement, offset);
      offset += replacement.length;
    } else out[offset++] = NEWLINE;
  }
  for (const patch of patches) out.set(replacement, patch);
  out.set(tail, offset);
  return out;
}

/** A cut's kept lines, its seq in dsh's reading and the calls open there. */
type ByteCut = { kept: ByteLine[]; cut: number; closedCalls: OpenCall[] };

/**
 * The cut at the entry uuid `at`: on the file's one entry index (`claudeCodeSkeletonChain`) with the
 * reading counted from skeletons (`claudeCodeEventCount`) — or, for a file or cut that index does
 * not take, through `nativeCut`'s reading of the kept lines. Undefined for an unknown REF.
 */
function cutOf(format: NativeFormat, lines: readonly ByteLine[], at: string): ByteCut | undefined {
  const chain = claudeCodeSkeletonChain(
    lines.map((line) => line.value as ClaudeCodeSkeleton),
    at,
  );
  if (chain !== undefined) {
    const reading = claudeCodeEventCount(chain.main.map((index) => (lines[index] as ByteLine).value as ClaudeCodeSkeleton));
    return { kept: chain.kept.map((index) => lines[index] as ByteLine), cut: reading.count - 1, closedCalls: reading.openCalls };
  }
  try {
    const cut = nativeCut(format, lines, at);
    return { kept: cut.kept as ByteLine[], cut: cut.cut, closedCalls: openCallsAt(cut.events) };
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
  if (!isUtf8(buffer)) return undefined;
  const lines = byteLines(buffer);
  let format;
  try {
    format = nativeFormatOf(
      lines.slice(0, 20).map((line) => parsedLine(buffer, line)),
      options.format,
    );
  } catch {
    return undefined;
  }
  if (format !== CLAUDE_CODE_NATIVE) return undefined;
  const cut = cutOf(format, lines, options.at);
  if (cut === undefined) return undefined;
  const { kept, closedCalls } = cut;
  const parentSessionId = format.sessionIdOf(lines);
  const sessionId = typeof options.sessionId === 'string' ? options.sessionId : options.sessionId(format.format);
  let previous = parsedLine(buffer, kept[kept.length - 1] as ByteLine);
  const closers: string[] = [];
  for (const call of closedCalls) {
    previous = format.closer(
      { callId: call.callId, name: call.name, text: closerText('forked', call), isError: true },
      { previous, sessionId, now: options.now, salt: `fork:${options.at}` },
    );
    closers.push(`${previous.raw}\n`);
  }
  const rewrite = (line: ByteLine): boolean => parentSessionId !== undefined || line.index === 0;
  return {
    format: format.format,
    sessionId,
    fileName: format.fileName(sessionId, options.now),
    parentSessionId,
    cut: cut.cut,
    inheritedEntryCount: kept.length,
    closedCalls,
    bytes: childBytes(buffer, kept, rewrite, parentSessionId ?? '', sessionId, Buffer.from(closers.join(''), 'utf8')),
  };
}
