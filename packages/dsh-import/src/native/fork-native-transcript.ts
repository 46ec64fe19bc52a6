/**
 * `forkNativeTranscript` (SPEC §18): a Claude Code, Codex or pi session file → the child file, in
 * the tool's own format: the source's lines on the chain to the cut byte for byte (only session id
 * fields changed), then one error result per call open at the cut, holding exactly the text dsh's
 * shared closer stores for it. Pure: the caller supplies the new session id and the time.
 */
import { Buffer } from 'node:buffer';
import { assertUtf8Lines } from './assert-utf8-lines.js';
import { codexCallKind } from './codex-native.js';
import { forkClaudeCodeRead } from './claude-code-bytes/fork-claude-code-bytes.js';
import { readClaudeCodeBytes, type ClaudeCodeBytes } from './claude-code-bytes/claude-code-byte-fork.js';
import type { NativeFormat } from './native-format.js';
import { joinNativeLines, splitNativeLines, type NativeLine } from './native-line.js';
import { nativeCut } from './native-cut.js';
import { ChildChunks, splitNativeBytes } from './native-byte-lines.js';
import { nativeFormatOf } from './native-formats.js';
import { closerText, openCallsAt, type OpenCall } from './open-calls.js';
import type { NativeFork, NativeForkOptions } from './native-fork-types.js';
import { checkForkAt, nativeFileFork, type NativeFileFork } from './native-file-fork.js';
import { lineCount } from './claude-code-bytes/fork-memory-bound.js';
import { checkTextForkMemory, headFormatOf } from './text-fork-memory.js';

export type { NativeFork, NativeForkOptions } from './native-fork-types.js';

/** Where a cut keeps its lines, its seq, and the calls open there (the reading it came from let go). */
function cutOf(
  format: NativeFormat,
  lines: readonly NativeLine[],
  at: string,
): { kept: NativeLine[]; cut: number; closedCalls: OpenCall[] } {
  const { kept, events, cut } = nativeCut(format, lines, at);
  return { kept, cut, closedCalls: openCallsAt(events) };
}

/**
 * The child's lines from parsed source lines, handed to `write` in order as raw text: each kept
 * source line as rewritten (with the line), then the closers (without one). Returns the fork's facts.
 */
export function forkNativeLines(
  format: NativeFormat,
  lines: readonly NativeLine[],
  options: NativeForkOptions,
  write: (raw: string, line?: NativeLine) => void,
): Omit<NativeFork, 'text' | 'warnings'> {
  const sessionId = typeof options.sessionId === 'string' ? options.sessionId : options.sessionId(format.format);
  const parentSessionId = format.sessionIdOf(lines);
  const { kept, cut, closedCalls } = cutOf(format, lines, options.at);
  // One line at a time: the child's texts are not held together (a kept line left as it is becomes a view of a file's bytes).
  for (const line of kept)
    write(
      parentSessionId === undefined && line.index !== 0
        ? line.raw
        : format.rewrite(line, { from: parentSessionId ?? '', to: sessionId, parentFile: options.parentFile, header: line.index === 0 }),
      line,
    );
  let previous = kept[kept.length - 1] as NativeLine;
  for (const call of closedCalls) {
    const kind = format.format === 'codex' ? codexCallKind(kept, call.callId) : undefined;
    previous = format.closer(
      { callId: call.callId, name: call.name, text: closerText('forked', call), isError: true, ...(kind === undefined ? {} : { kind }) },
      { previous, sessionId, now: options.now, salt: `fork:${options.at}` },
    );
    write(previous.raw);
  }
  return {
    format: format.format,
    sessionId,
    fileName: format.fileName(sessionId, options.now),
    parentSessionId,
    cut,
    inheritedEntryCount: kept.length,
    closedCalls,
  };
}

/**
 * Forks the session file `text` at `options.at`. Refuses an unknown REF or seq (`INVALID_CUT`,
 * naming the valid range or the nearest ids) and a file of no known format (`UNKNOWN_FORMAT`); a
 * malformed line is skipped and named in `warnings` (`MALFORMED_LINE` when `strict`).
 */
export function forkNativeTranscript(text: string, options: NativeForkOptions): NativeFork {
  checkForkAt(options.at);
  const warnings: string[] = [];
  const lines = splitNativeLines(text, options.strict === true ? undefined : warnings);
  const format = nativeFormatOf(lines, options.format);
  const raws: string[] = [];
  const fork = forkNativeLines(format, lines, options, (raw) => raws.push(raw));
  return { ...fork, warnings, text: joinNativeLines(raws) };
}

export type { NativeFileFork } from './native-file-fork.js';

/**
 * `forkNativeTranscript` of a session file's bytes (decoded as UTF-8), the child returned as chunks.
 * A Claude Code file cut at an entry uuid is forked without parsing every line where WebAssembly
 * runs (see `claude-code-bytes/`); the child is byte for byte what `forkNativeTranscript` gives
 * for the decoded text. Same errors, and `MALFORMED_LINE` for a line that is not valid UTF-8.
 */
export function forkNativeFile(bytes: Uint8Array, options: NativeForkOptions): NativeFileFork {
  checkForkAt(options.at);
  return forkFileRead(bytes, options, readClaudeCodeBytes(bytes, options));
}

/** `forkNativeFile` of `bytes` whose byte path read them already (`read`; undefined: it does not take them). */
export function forkFileRead(bytes: Uint8Array, options: NativeForkOptions, read: ClaudeCodeBytes | undefined): NativeFileFork {
  const fast = read === undefined ? undefined : forkClaudeCodeRead(read, options);
  if (fast !== undefined) return fast;
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  assertUtf8Lines(buffer);
  // The bound is checked before a line past the first few is parsed (the parsed lines are most of the need).
  const format = headFormatOf(buffer, options.format);
  if (format !== undefined) checkTextForkMemory(buffer, format, lineCount(buffer), options.at, options.maxMemoryBytes);
  // As `forkNativeTranscript` of the decoded text, without the text: each line is decoded to be parsed, and the
  // lines the child keeps unchanged are views of `bytes`.
  const warnings: string[] = [];
  const lines = splitNativeBytes(buffer, options.strict === true ? undefined : warnings);
  const child = new ChildChunks();
  const fork = forkNativeLines(nativeFormatOf(lines, options.format), lines, options, (raw, line) => {
    child.add(raw, line);
  });
  return nativeFileFork({ ...fork, warnings }, child.chunks());
}
