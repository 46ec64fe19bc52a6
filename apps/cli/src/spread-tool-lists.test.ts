import { describe, expect, it } from 'vitest';
import { parseCommandLine } from './parse-command-line.js';
import { spreadToolLists } from './spread-tool-lists.js';

describe('--allowedTools Read Bash, space-separated as Claude Code takes it (SPEC §25)', () => {
  it('gives each tool word its own flag and leaves the prompt a prompt', () => {
    expect(spreadToolLists(['-p', '--allowedTools', 'Read', 'Bash(git log:*)', 'mcp__fs__read', 'fix the bug'])).toEqual([
      '-p',
      '--allowedTools',
      'Read',
      '--allowedTools',
      'Bash(git log:*)',
      '--allowedTools',
      'mcp__fs__read',
      'fix the bug',
    ]);
    expect(spreadToolLists(['-p', 'hi', '--disallowedTools', 'Edit', 'write_file', '--verbose'])).toEqual([
      '-p',
      'hi',
      '--disallowedTools',
      'Edit',
      '--disallowedTools',
      'write_file',
      '--verbose',
    ]);
  });

  it('print mode parses `-p --allowedTools Read Bash "prompt"` with the prompt as its one argument', async () => {
    const parsed = await parseCommandLine(['-p', '--allowedTools', 'Read', 'Bash', 'summarise the notes']);
    expect(parsed).toMatchObject({ kind: 'command', positionals: ['summarise the notes'], values: { allowedTools: ['Read', 'Bash'] } });
    const removed = await parseCommandLine(['-p', 'go', '--disallowedTools', 'Edit', 'Write']);
    expect(removed).toMatchObject({ kind: 'command', positionals: ['go'], values: { disallowedTools: ['Edit', 'Write'] } });
  });
});
