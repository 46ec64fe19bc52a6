/** The command table's help names the current format version as dsh-codec defines it. */
import { describe, expect, it, vi } from 'vitest';

// A codec one version ahead: the help must follow it with no edit of the table.
vi.mock('dsh-codec/format-version', () => ({ CURRENT_FORMAT_VERSION: 7 }));

describe('the command table', () => {
  it("names the current format version in migrate's help from dsh-codec's CURRENT_FORMAT_VERSION", async () => {
    const { COMMANDS } = await import('./command-spec.js');
    const { parseCommandLine } = await import('./parse-command-line.js');
    expect(COMMANDS.find((spec) => spec.name === 'migrate')?.summary).toBe('print a log of any version as current-format (V7) JSONL');
    const help = await parseCommandLine(['migrate', '--help']);
    expect(help.kind === 'help' ? help.text : '').toContain('current-format (V7) JSONL');
  });
});
