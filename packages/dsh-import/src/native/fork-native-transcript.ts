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
import { nativeChildChunks, splitNativeBytes } from './native-byte-lines.js';
import { nativeFormatOf } from './native-formats.js';
import { closerText, openCallsAt } from './open-calls.js';
import type { NativeFork, NativeForkOptions } from './native-fork-types.js';
import { checkForkAt, nativeFileFork, type NativeFileFork } from './native-file-fork.js';

export type { NativeFork, NativeForkOptions } from './native-fork-types.js';

/** The child's lines (raw text: the `kept` source lines' as rewritten, then the closers) from parsed source lines. */
export function forkNativeLines(
  format: NativeFormat,
  lines: readonly NativeLine[],
  options: NativeForkOptions,
): Omit<NativeFork, 'text' | 'warnings'> & { kept: NativeLine[]; raws: string[] } {
  const sessionId = typeof options.sessionId === 'string' ? options.sessionId : options.sessionId(format.format);
  const parentSessionId = format.sessionIdOf(lines);
  const { kept, events, cut } = nativeCut(format, lines, options.at);
  const raws = kept.map((line) =>
    parentSessionId === undefined && line.index !== 0
      ? line.raw
      : format.rewrite(line, { from: parentSessionId ?? '', to: sessionId, parentFile: options.parentFile, header: line.index === 0 }),
  );
  const closedCalls = openCallsAt(events);
  let previous = kept[kept.length - 1] as NativeLine;
  for (const call of closedCalls) {
    const kind = format.format === 'codex' ? codexCallKind(kept, call.callId) : undefined;
    previous = format.closer(
      { callId: call.callId, name: call.name, text: closerText('forked', call), isError: true, ...(kind === undefined ? {} : { kind }) },
      { previous, sessionId, now: options.now, salt: `fork:${options.at}` },
    );
    raws.push(previous.raw);
  }
  return {
    format: format.format,
    sessionId,
    fileName: format.fileName(sessionId, options.now),
    parentSessionId,
    cut,
    inheritedEntryCount: kept.length,
    closedCalls,
    kept,
    raws,
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
  const { raws, kept: _kept, ...fork } = forkNativeLines(format, lines, options);
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
  // As `forkNativeTranscript` of the decoded text, without the text: each line is decoded to be parsed, and the
  // lines the child keeps unchanged are views of `bytes`.
  const warnings: string[] = [];
  const lines = splitNativeBytes(buffer, options.strict === true ? undefined : warnings);
  const format = nativeFormatOf(lines, options.format);
  const { raws, kept, ...fork } = forkNativeLines(format, lines, options);
  return nativeFileFork({ ...fork, warnings }, nativeChildChunks(kept, raws));
}
