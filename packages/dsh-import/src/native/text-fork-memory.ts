/**
 * The memory bound (SPEC §24) of a pi or Codex native fork, which takes the text path: every line
 * parsed and held, and dsh's reading of the chain through the import (Claude Code's byte path keeps
 * a row of integers a line instead, `fork-memory-bound.ts`). Its need is estimated from the file's
 * size and line count before a line is parsed past the first 20, and a file that would need more
 * than the bound (4× its size, at least 64 MiB, or `maxMemoryBytes`) is refused `FILE_TOO_LARGE`,
 * naming what it would need.
 * @module
 */
import type { Buffer } from 'node:buffer';
import type { TranscriptFormat } from '../detect-format.js';
import { ImportError } from '../import-error.js';
import { forkMemoryBound } from './claude-code-bytes/fork-memory-bound.js';
import type { NativeForkOptions } from './native-fork-types.js';
import { nativeFormatOf } from './native-formats.js';
import { readNativeLines } from './native-line.js';

const NEWLINE = 10;
// The lines the format is told from (`nativeFormatOf` reads 20 parsed ones), with room for malformed ones.
const HEAD_LINES = 40;

/**
 * What the text path's fork holds beyond its process, per format: eighths of a byte per byte of the
 * file, and bytes a line. Fitted on `dsh fork FILE --at <last entry>` of generated 60 MB files of
 * short (233–380 bytes) and long (950–3,000 bytes) lines, peak RSS less the 50 MiB the CLI holds
 * before it reads (docs/decisions/2026-12-07-pi-codex-native-fork-from-bytes.md): pi 2.6× the file
 * and 2.2 KiB a line, Codex 2.8× and 580 bytes — each rounded up.
 */
const TEXT_FORK_COST: Readonly<Record<'pi' | 'codex', { eighthsPerByte: number; perLine: number }>> = {
  pi: { eighthsPerByte: 22, perLine: 2400 },
  codex: { eighthsPerByte: 23, perLine: 640 },
};

/**
 * A `seq:N` cut also holds the whole main line's reading (what N is numbered in) beside the pass
 * that finds its prefix: 1.8–2.6× a REF cut's need on 15 MB files (docs/decisions/2026-12-07-native-seq-cut-one-pass.md).
 */
const SEQ_CUT_FACTOR = 3;

const MIB = 1024 * 1024;
const mib = (bytes: number): string => `${(bytes / MIB).toFixed(1)} MiB`;

/** What the text path's fork of a `format` file of `size` bytes and `lines` lines needs (`seq`: cut at `seq:N`). */
export function textForkMemoryNeed(format: 'pi' | 'codex', size: number, lines: number, seq: boolean): number {
  const cost = TEXT_FORK_COST[format];
  const need = Math.ceil((size * cost.eighthsPerByte) / 8) + lines * cost.perLine;
  return seq ? need * SEQ_CUT_FACTOR : need;
}

/**
 * `FILE_TOO_LARGE` when the text path's fork of `bytes` (a `format` file of `lines` lines, cut at
 * `at`) would need more than its bound. Claude Code files are bounded on their byte path.
 */
export function checkTextForkMemory(
  bytes: Buffer,
  format: TranscriptFormat,
  lines: number,
  at: string,
  maxMemoryBytes: number | undefined,
): void {
  if (format === 'claude-code') return;
  const seq = /^seq:\d+$/.test(at);
  const bound = forkMemoryBound(bytes.length, maxMemoryBytes);
  const need = textForkMemoryNeed(format, bytes.length, lines, seq);
  if (need <= bound) return;
  const cost = TEXT_FORK_COST[format];
  const limit = maxMemoryBytes === undefined ? "4× the file's size, at least 64 MiB" : 'maxMemoryBytes';
  throw new ImportError(
    'FILE_TOO_LARGE',
    `a native fork of this ${mib(bytes.length)} ${format} file of ${String(lines)} lines would need about ${mib(need)} of memory (${String(cost.eighthsPerByte / 8)}× the file and ${String(cost.perLine)} bytes a line${seq ? `, ${String(SEQ_CUT_FACTOR)}× that for a seq:N cut` : ''}: every line is parsed); expected at most ${mib(bound)} (${limit})`,
  );
}

/**
 * The format the first lines of `bytes` are recognised as (malformed lines among them skipped), or
 * undefined when they are none: the full reading then reports the file as it always has.
 */
export function headFormatOf(bytes: Buffer, format: NativeForkOptions['format']): TranscriptFormat | undefined {
  const raws: string[] = [];
  for (let start = 0; start < bytes.length && raws.length < HEAD_LINES;) {
    const newline = bytes.indexOf(NEWLINE, start);
    const end = newline < 0 ? bytes.length : newline;
    raws.push(bytes.toString('utf8', start, end));
    start = end + 1;
  }
  try {
    const lines = readNativeLines(
      raws.length,
      (index) => raws[index] as string,
      false,
      (index, raw, value) => ({ index, raw, value }),
      [],
    );
    return nativeFormatOf(lines, format).format;
  } catch {
    return undefined;
  }
}
