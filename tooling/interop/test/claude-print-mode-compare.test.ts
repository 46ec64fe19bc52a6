/**
 * SPEC §21: `dsh -p` as a drop-in for `claude -p`. The real Claude Code and dsh run the same kind of
 * tool-using turn against the same fake Anthropic server; their `--output-format json` objects and
 * `stream-json` lines must have the same line types and, for every key §21 names, the same JSON type.
 * The key-by-key table of docs/cli.md comes from this comparison.
 */
import { fileURLToPath } from 'node:url';
import { printSkip, scriptReplies, startModelServer } from '@dsh/test-utils';
import { describe, expect, it } from 'vitest';
import { FAKE_MODEL, installTool, interopSkipReason, makeInteropHome, runBin, runTool, toolEnvironment } from '../src/index.js';

const DSH_BIN = fileURLToPath(new URL('../../../apps/cli/bin/dsh.js', import.meta.url));

const skip = interopSkipReason();
if (skip !== undefined) printSkip('interop claude -p comparison', skip);

type Line = Record<string, unknown>;

/** The JSON type of a value as a reader sees it: string, number, boolean, null, array or object. */
function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** The value at a dotted path (`message.content.0.type`). */
function at(value: unknown, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>(
      (node, key) => (node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined),
      value,
    );
}

// The keys SPEC §21 names, per line type.
const RESULT_KEYS = [
  'type',
  'subtype',
  'is_error',
  'result',
  'session_id',
  'num_turns',
  'duration_ms',
  'duration_api_ms',
  'total_cost_usd',
  'usage',
  'usage.input_tokens',
  'usage.output_tokens',
  'permission_denials',
  'uuid',
];
const INIT_KEYS = ['type', 'subtype', 'session_id', 'cwd', 'model', 'tools'];
const ASSISTANT_KEYS = ['type', 'session_id', 'message', 'message.role', 'message.content', 'message.content.0.type'];
const USER_KEYS = [
  'type',
  'session_id',
  'message.content',
  'message.content.0.type',
  'message.content.0.tool_use_id',
  'message.content.0.content',
  'message.content.0.is_error',
];

async function runBoth(args: readonly string[]): Promise<{ claude: string; dsh: string }> {
  await using home = await makeInteropHome();
  await using claudeServer = await startModelServer({
    anthropic: scriptReplies([
      { toolCalls: [{ id: 'toolu_cmp_1', name: 'Bash', input: { command: 'echo compared', description: 'echo a word' } }] },
      { text: 'All done.' },
    ]),
  });
  await using dshServer = await startModelServer({
    anthropic: scriptReplies([{ toolCalls: [{ id: 'toolu_cmp_1', name: 'list_files', input: { path: '.' } }] }, { text: 'All done.' }]),
  });
  const claudeEnv = (await toolEnvironment('claude-code', { home: home.home, server: claudeServer.origin })).env;
  const claude = await runTool('claude-code', ['-p', 'run it', '--allowedTools', 'Bash', ...args], { cwd: home.cwd, env: claudeEnv });
  expect(claude.code, claude.stderr).toBe(0);
  const dshEnv = { ...claudeEnv, ANTHROPIC_BASE_URL: dshServer.origin, DSH_HOME: `${home.home}/dsh` };
  const dsh = await runBin(process.execPath, [DSH_BIN, '-p', 'run it', '--model', `anthropic:${FAKE_MODEL}`, ...args], {
    cwd: home.cwd,
    env: dshEnv,
  });
  expect(dsh.code, dsh.stderr).toBe(0);
  expect(dshServer.proxied).toEqual([]);
  expect(claudeServer.proxied).toEqual([]);
  return { claude: claude.stdout, dsh: dsh.stdout };
}

function compareKeys(name: string, keys: readonly string[], claude: Line | undefined, dsh: Line | undefined): string[] {
  const rows: string[] = [];
  for (const key of keys) {
    const left = jsonType(at(claude, key));
    const right = jsonType(at(dsh, key));
    rows.push(`| ${name} | \`${key}\` | ${left} | ${right} | ${left === right ? 'yes' : 'no'} |`);
    expect(right, `${name} ${key}: claude has ${left}`).toBe(left);
  }
  return rows;
}

describe.skipIf(skip !== undefined)('dsh -p beside the real claude -p (same fake Anthropic server)', () => {
  it('--output-format json: one result object; every key §21 names has the same JSON type', { timeout: 240_000 }, async () => {
    await installTool('claude-code');
    const { claude, dsh } = await runBoth(['--output-format', 'json']);
    const rows = compareKeys('result', RESULT_KEYS, JSON.parse(claude) as Line, JSON.parse(dsh) as Line);
    process.stderr.write(`${rows.join('\n')}\n`);
  });

  it(
    '--output-format stream-json --verbose: the same line types; every key §21 names has the same JSON type',
    { timeout: 240_000 },
    async () => {
      await installTool('claude-code');
      const { claude, dsh } = await runBoth(['--output-format', 'stream-json', '--verbose']);
      const parse = (text: string) =>
        text
          .trimEnd()
          .split('\n')
          .map((line) => JSON.parse(line) as Line);
      const claudeLines = parse(claude);
      const dshLines = parse(dsh);
      const kinds = (lines: Line[]) => [...new Set(lines.map((line) => String(line.type)))].sort();
      expect(kinds(dshLines)).toEqual(kinds(claudeLines));
      for (const lines of [claudeLines, dshLines]) {
        expect(lines.at(-1)?.type).toBe('result');
        expect(lines[0]).toMatchObject({ type: 'system', subtype: 'init' });
        for (const line of lines) expect(typeof line.session_id).toBe('string');
      }
      const first = (lines: Line[], test: (line: Line) => boolean) => lines.find(test);
      const isToolResult = (line: Line) => line.type === 'user' && jsonType(at(line, 'message.content.0.tool_use_id')) === 'string';
      const rows = [
        ...compareKeys('system init', INIT_KEYS, claudeLines[0], dshLines[0]),
        ...compareKeys(
          'assistant',
          ASSISTANT_KEYS,
          first(claudeLines, (line) => line.type === 'assistant'),
          first(dshLines, (line) => line.type === 'assistant'),
        ),
        ...compareKeys('user (tool result)', USER_KEYS, first(claudeLines, isToolResult), first(dshLines, isToolResult)),
        ...compareKeys('result', RESULT_KEYS, claudeLines.at(-1), dshLines.at(-1)),
      ];
      process.stderr.write(`${rows.join('\n')}\n`);
    },
  );
});
