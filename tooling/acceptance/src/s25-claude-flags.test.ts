/**
 * SPEC §25 — Claude Code's print-mode flags do not break a `claude -p` script run against the real
 * `dsh` bin: permission flags accepted with a note, `--disallowedTools` removing availability,
 * `json --verbose` as an array, stream-json input, a message for each flag dsh lacks, did-you-mean.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, type TempDir, runDsh } from '@dsh/test-utils';

let dir: TempDir;
let data: string;
beforeEach(async () => {
  dir = await makeTempDir('dsh-acc-s25-');
  data = join(dir.path, 'data');
});
afterEach(async () => {
  await dir.remove();
});

const run = (args: string[], stdin?: string) =>
  runDsh([...args, '--data', data], { cwd: dir.path, ...(stdin === undefined ? {} : { stdin }) });

describe('§25 Claude Code flags in print mode', () => {
  it(
    '§25 --allowedTools, --permission-mode and --dangerously-skip-permissions run the turn with one note on stderr',
    { timeout: 120_000 },
    async () => {
      const ran = await run([
        '-p',
        'hi',
        '--allowedTools',
        'Read,Bash(git log:*)',
        '--permission-mode',
        'acceptEdits',
        '--dangerously-skip-permissions',
        '--output-format',
        'json',
      ]);
      expect(ran.code, ran.stderr).toBe(0);
      const notes = ran.stderr.split('\n').filter((line) => line.includes('no permission prompts'));
      expect(notes).toHaveLength(1);
      expect(notes[0]).toMatch(/--allowedTools, --permission-mode, --dangerously-skip-permissions.*every available tool runs.*--tools/);
      expect((JSON.parse(ran.stdout) as { is_error: boolean }).is_error).toBe(false);
    },
  );

  it(
    '§25 --disallowedTools removes tools (Claude or dsh names, patterns remove the whole tool); recorded, so a resume keeps it',
    { timeout: 120_000 },
    async () => {
      const first = await run(['-p', 'hi', '--disallowedTools', 'Edit, Glob(*.ts)', '--output-format', 'stream-json']);
      expect(first.code, first.stderr).toBe(0);
      const init = JSON.parse(first.stdout.split('\n')[0] ?? '') as { tools: string[]; session_id: string };
      expect(init.tools).toEqual(['read_file', 'make_dir']);
      const resumed = await run([
        '-p',
        'again',
        '--resume',
        init.session_id,
        '--disallowedTools',
        'make_dir',
        '--output-format',
        'stream-json',
      ]);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect((JSON.parse(resumed.stdout.split('\n')[0] ?? '') as { tools: string[] }).tools).toEqual(['read_file']);
      const unknown = await run(['-p', 'hi', '--disallowedTools', 'Bash,Frobnicate']);
      expect(unknown.code, unknown.stderr).toBe(0);
      expect(unknown.stderr).toMatch(/--disallowedTools: Bash, Frobnicate are not a tool dsh has/);
    },
  );

  it(
    '§25 --output-format json --verbose prints the array of message objects, init first and the result last',
    { timeout: 120_000 },
    async () => {
      const ran = await run(['-p', 'hi', '--output-format', 'json', '--verbose']);
      expect(ran.code, ran.stderr).toBe(0);
      const messages = JSON.parse(ran.stdout) as { type: string; subtype?: string; session_id: string }[];
      expect(Array.isArray(messages)).toBe(true);
      expect(messages.map((message) => message.type)).toEqual(['system', 'assistant', 'result']);
      expect([messages[0]?.subtype, messages[2]?.subtype]).toEqual(['init', 'success']);
      expect(new Set(messages.map((message) => message.session_id)).size).toBe(1);
    },
  );

  it(
    "§25 --input-format stream-json reads Claude Code's user message lines on stdin as the prompt; a bad line is USAGE naming it",
    { timeout: 120_000 },
    async () => {
      const lines = [
        { type: 'user', message: { role: 'user', content: 'first part' } },
        { type: 'user', message: { role: 'user', content: [{ type: 'text', text: 'second part' }] } },
      ];
      const ran = await run(
        ['-p', '--input-format', 'stream-json', '--output-format', 'events'],
        `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`,
      );
      expect(ran.code, ran.stderr).toBe(0);
      const users = ran.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { type: string; data?: { message?: { content: unknown } } })
        .filter((event) => event.type === 'user/message');
      expect(users.map((event) => event.data?.message?.content)).toEqual([[{ type: 'text', text: 'first part\n\nsecond part' }]]);
      const bad = await run(['-p', '--input-format', 'stream-json'], 'just text\n');
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(/--input-format stream-json expects one JSON object per stdin line.*line 1 has text that is not JSON/);
    },
  );

  it(
    '§25 a Claude Code flag dsh lacks is named with what dsh does instead, never a bare "Unknown option"; a command typo gets did-you-mean',
    { timeout: 120_000 },
    async () => {
      for (const [flags, instead] of [
        [['--add-dir', '../other'], /--cwd DIR/],
        [['--mcp-config', 'mcp.json'], /no MCP client/],
        [['--settings', 's.json'], /no settings files/],
        [['--fallback-model', 'sonnet'], /--model/],
      ] as const) {
        const refused = await run(['-p', 'hi', ...flags]);
        expect(refused.code, refused.stderr).toBe(2);
        expect(refused.stderr).toContain(`${flags[0]} is a Claude Code option dsh does not have`);
        expect(refused.stderr).toMatch(instead);
        expect(refused.stderr).not.toContain('Unknown option');
      }
      const typo = await run(['sesions']);
      expect(typo.code).toBe(2);
      expect(typo.stderr).toContain("Unknown command 'sesions'; did you mean 'sessions'?");
    },
  );
});
