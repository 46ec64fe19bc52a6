/** The native format of each tool, and how a file's format is recognised. */
import { detectFormat, type TranscriptFormat } from '../detect-format.js';
import { ImportError } from '../import-error.js';
import { CLAUDE_CODE_NATIVE } from './claude-code-native.js';
import { CODEX_NATIVE } from './codex-native.js';
import type { NativeFormat } from './native-format.js';
import type { NativeLine } from './native-line.js';
import { PI_NATIVE } from './pi-native.js';

/** Each tool's native format. */
export const NATIVE_FORMATS: Readonly<Record<TranscriptFormat, NativeFormat>> = {
  'claude-code': CLAUDE_CODE_NATIVE,
  codex: CODEX_NATIVE,
  pi: PI_NATIVE,
};

/** The format of a file's `lines`: `format` when given (checked against them), else recognised. */
export function nativeFormatOf(lines: readonly NativeLine[], format: 'auto' | TranscriptFormat = 'auto'): NativeFormat {
  if (format !== 'auto' && !Object.hasOwn(NATIVE_FORMATS, format)) {
    throw new ImportError('INVALID_OPTION', `format: expected auto, claude-code, codex or pi, received ${JSON.stringify(format)}`);
  }
  const detected = detectFormat(lines.slice(0, 20).map((line) => ({ line: line.index + 1, value: line.value })));
  if (format === 'auto') {
    if (detected === undefined) {
      throw new ImportError(
        'UNKNOWN_FORMAT',
        'expected a Claude Code session, a Codex rollout or a pi session file; its first lines are none of them (--format claude-code|codex|pi forces one)',
      );
    }
    return NATIVE_FORMATS[detected];
  }
  if (detected !== undefined && detected !== format)
    throw new ImportError('FORMAT_MISMATCH', `format ${format} was asked for, but the file is a ${detected} session`);
  return NATIVE_FORMATS[format];
}
