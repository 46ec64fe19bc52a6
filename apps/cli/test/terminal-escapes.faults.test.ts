// Issue 36 item 7: terminal escapes in a foreign session file (OSC 0 and 52, ESC[2J, a C1 CSI, a bidi
// override, DEL) in its titles, cwd, ids and message, tool and reasoning text reached the terminal
// through 9 of these 14 commands. Each command runs the real bin over Claude Code, Codex and pi files
// carrying every kind; one whose output holds a raw control (other than newline and tab) or bidi
// override counts an escape. Imported titles must also follow the API's title rule.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeCodeTranscript, codexTranscript, makeTempDir, piTranscript, reportFaults, runDsh, type TempDir } from '@dsh/test-utils';

const CLAUDE_ID = '5f0c3a52-1111-4222-8333-444455556666';
const CODEX_ID = '019e2000-1111-7222-8333-444455556666';
const PI_ID = '019e3000-2222-7333-8444-555566667777';

/** Every kind at once: OSC 0 (window title), OSC 52 (clipboard), clear screen, C1 CSI, RLO, DEL. */
const HOSTILE = '\u001b]0;pwned\u0007|\u001b]52;c;cHduZWQ=\u0007|\u001b[2J|\u009b31m|\u202e|\u007f';
/** What a terminal would obey: C0 but newline and tab, DEL, C1, bidi overrides. */
// eslint-disable-next-line no-control-regex -- control characters are what the test looks for
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
/** The string fields the files' readers show: cwd, titles, message, tool and reasoning text, call ids. */
const HOSTILE_KEYS = new Set([
  'cwd',
  'text',
  'thinking',
  'summary',
  'customTitle',
  'name',
  'message',
  'output',
  'content',
  'call_id',
  'input',
]);

/** `text` with HOSTILE appended to every string of a HOSTILE_KEYS member (tool names excepted), line by line. */
function poisoned(text: string): string {
  const visit = (value: unknown, key: string, parent: Record<string, unknown> | undefined): unknown => {
    if (typeof value === 'string') {
      const isToolName = key === 'name' && parent !== undefined && ('arguments' in parent || 'input' in parent || 'call_id' in parent);
      return HOSTILE_KEYS.has(key) && !isToolName ? `${value}${HOSTILE}` : value;
    }
    if (Array.isArray(value)) return value.map((item) => visit(item, key, parent));
    if (typeof value === 'object' && value !== null) {
      const record = value as Record<string, unknown>;
      return Object.fromEntries(Object.entries(record).map(([name, member]) => [name, visit(member, name, record)]));
    }
    return value;
  };
  return text
    .split('\n')
    .map((line) => (line === '' ? line : JSON.stringify(visit(JSON.parse(line), '', undefined))))
    .join('\n');
}

let dir: TempDir;
let env: Record<string, string>;
let files: { claude: string; codex: string; pi: string };

beforeAll(async () => {
  dir = await makeTempDir('dsh-escapes-');
  const home = join(dir.path, 'home');
  const claudeFolder = join(home, '.claude', 'projects', '-work-app');
  const codexFolder = join(dir.path, 'codex-home', 'sessions', '2026', '01', '02');
  const piFolder = join(dir.path, 'pi-agent', 'sessions', '--work-app--');
  for (const folder of [claudeFolder, codexFolder, piFolder]) await mkdir(folder, { recursive: true });
  files = {
    claude: join(claudeFolder, `${CLAUDE_ID}.jsonl`),
    codex: join(codexFolder, `rollout-2026-01-02T10-00-00-${CODEX_ID}.jsonl`),
    pi: join(piFolder, `2026-01-02T10-00-00-000Z_${PI_ID}.jsonl`),
  };
  const claude = `${claudeCodeTranscript({ turns: 2, sessionId: CLAUDE_ID }).text}${JSON.stringify({ type: 'custom-title', customTitle: 'mine', sessionId: CLAUDE_ID })}\n`;
  const pi = `${piTranscript({ turns: 2 }).text}${JSON.stringify({ type: 'session_info', name: 'named', id: '000000ff', parentId: '00000009', timestamp: '2026-11-22T07:01:00.000Z' })}\n`;
  await writeFile(files.claude, poisoned(claude));
  await writeFile(files.codex, poisoned(codexTranscript({ turns: 2 }).text));
  await writeFile(files.pi, poisoned(pi));
  env = {
    HOME: home,
    CODEX_HOME: join(dir.path, 'codex-home'),
    PI_CODING_AGENT_DIR: join(dir.path, 'pi-agent'),
    DSH_HOME: join(dir.path, 'dsh'),
  };
}, 60_000);
afterAll(async () => {
  await dir.remove();
});

describe('terminal escapes in a foreign session file', () => {
  it('reach no terminal through any of 14 commands: shown escaped (\\x1b, \\u202e)', { timeout: 300_000 }, async () => {
    const outputs: [string, string][] = [];
    const run = async (args: string[]): Promise<string> => {
      const result = await runDsh(args, { env });
      expect(result.code, `dsh ${args.join(' ')}: ${result.stderr}`).toBe(0);
      outputs.push([args.join(' '), result.stdout + result.stderr]);
      return result.stdout;
    };
    // The tools' own files, read where they lie.
    for (const tool of ['--claude', '--codex', '--pi']) await run(['sessions', tool]);
    for (const id of [CLAUDE_ID, CODEX_ID, PI_ID]) await run(['show', id]);
    await run(['export', CLAUDE_ID]);
    await run(['fork', files.codex, '--at', 'seq:4']);
    // Imported into dsh.
    await run(['import', files.claude, files.codex, files.pi]);
    const listed = JSON.parse((await runDsh(['sessions', '--json'], { env })).stdout) as { id: string; title?: string }[];
    await run(['sessions']);
    await run(['sessions', '--tree']);
    const imported = listed.find((item) => item.title?.startsWith('mine') === true)?.id ?? '';
    await run(['show', imported]);
    await run(['export', imported]);
    await run(['fork', imported]);

    const escaped = outputs.filter(([, output]) => RAW_CONTROL.test(output)).map(([command]) => command);
    reportFaults('terminal-escapes', { trials: outputs.length, acknowledged: outputs.length - escaped.length, escapes: escaped.length });
    expect(escaped).toEqual([]);
    expect(outputs).toHaveLength(14);
    // Shown, not dropped: the bodies keep every escape visible.
    for (const [command, output] of outputs.filter(([command]) => command.startsWith('show') || command.startsWith('export'))) {
      expect(output, command).toContain('\\x1b]0;pwned\\x07');
      expect(output, command).toContain('\\u202e');
    }
    // An imported title is held to the rule a title set through the API is: printable, at most 200 characters.
    const titles = listed.map((item) => item.title ?? '');
    expect(titles.filter((title) => /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/u.test(title) || title.length > 200)).toEqual([]);
    expect(titles.some((title) => title.startsWith('mine'))).toBe(true);
  });

  it("print mode's text answer shows a model's escapes escaped; its JSON stays JSON", { timeout: 120_000 }, async () => {
    const script = join(dir.path, 'script.json');
    await writeFile(script, JSON.stringify([{ text: `answer ${HOSTILE}\nsecond line` }]));
    const args = ['-p', 'go', '--model', `scripted:${script}`, '--tools', '', '--data', join(dir.path, 'print')];
    const text = await runDsh(args, { env });
    expect(text.code, text.stderr).toBe(0);
    expect(RAW_CONTROL.test(text.stdout + text.stderr)).toBe(false);
    expect(text.stdout).toContain('answer \\x1b]0;pwned\\x07|\\x1b]52;c;cHduZWQ=\\x07|\\x1b[2J|\\x9b31m|\\u202e|\\x7f\nsecond line');
    const json = await runDsh([...args, '--output-format', 'json'], { env });
    expect((JSON.parse(json.stdout) as { result: string }).result).toBe(`answer ${HOSTILE}\nsecond line`);
  });
});
