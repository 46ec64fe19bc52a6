/**
 * How each tool resumes a session file (the one table the native formats' `resume` and the CLI's
 * resume lines read), apart from the formats so the CLI's `dsh fork FILE` loads no other tool's format.
 * @module
 */
import type { TranscriptFormat } from '../detect-format.js';

/** Each tool's argv that resumes a session (`file`: where it was written). */
export const NATIVE_RESUME: Readonly<Record<TranscriptFormat, (sessionId: string, file: string) => string[]>> = {
  'claude-code': (sessionId) => ['claude', '--resume', sessionId],
  codex: (sessionId) => ['codex', 'exec', 'resume', sessionId],
  pi: (_sessionId, file) => ['pi', '--session', file],
};

/** The argv that resumes a native child with the tool's own command (`file`: where it was written). */
export function nativeResumeCommand(format: TranscriptFormat, sessionId: string, file: string): string[] {
  return NATIVE_RESUME[format](sessionId, file);
}
