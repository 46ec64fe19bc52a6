import { CURRENT_FORMAT_VERSION, validate } from 'dsh-codec';
import { importTranscript } from 'dsh-import';
import { describe, expect, it } from 'vitest';
import { claudeCodeLines } from './run-import-workload.js';

describe('the import workload input', () => {
  it('is exactly the asked number of Claude Code lines, and imports to valid sessions with reasoning', () => {
    const text = claudeCodeLines(2_500);
    expect(text.endsWith('\n')).toBe(true);
    expect(text.split('\n').length - 1).toBe(2_500);
    const { format, sessions } = importTranscript(text);
    expect(format).toBe('claude-code');
    for (const session of sessions) expect(validate(CURRENT_FORMAT_VERSION, session)).toEqual([]);
    expect(JSON.stringify(sessions[0]?.events)).toContain('"type":"reasoning"');
  });
});
