import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, printJson, runDsh, type TempDir } from '@dsh/test-utils';

let data: TempDir;
beforeEach(async () => {
  data = await makeTempDir('dsh-cli-formats-');
});
afterEach(async () => {
  await data.remove();
});

async function script(responses: unknown[]): Promise<string> {
  const file = join(data.path, 'script.json');
  await writeFile(file, JSON.stringify(responses));
  return `scripted:${file}`;
}

describe('print mode output formats (shaped like claude -p)', () => {
  it('json keeps dsh fields and adds Claude Code fields a claude -p script reads', { timeout: 120_000 }, async () => {
    const model = await script([
      { toolCalls: [{ name: 'list_files', arguments: { path: '.' } }], usage: { inputTokens: 10, outputTokens: 3 } },
      { text: 'two files', usage: { inputTokens: 20, outputTokens: 5 } },
    ]);
    const result = await printJson(['-p', 'look around', '--model', model, '--data', join(data.path, 'd')], { cwd: data.path });
    expect(result).toMatchObject({
      type: 'result',
      subtype: 'success',
      is_error: false,
      isError: false,
      result: 'two files',
      num_turns: 2,
      usage: { input_tokens: 30, output_tokens: 8 },
      stopReason: 'completed',
      turn: 1,
    });
    expect(result.session_id).toBe(result.sessionId);
    expect(typeof result.duration_ms).toBe('number');
  });

  it('json reports a failed turn as error_during_execution with is_error and exit 1', { timeout: 60_000 }, async () => {
    const model = await script([{ error: { message: 'the provider is down' } }]);
    const run = await runDsh(['-p', 'hi', '--model', model, '--output-format', 'json', '--data', join(data.path, 'd')]);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ type: 'result', subtype: 'error_during_execution', is_error: true, isError: true });
  });

  it('events prints each appended event as one JSON line, in seq order, then the result object', { timeout: 120_000 }, async () => {
    const dir = join(data.path, 'd');
    const run = await runDsh(['-p', 'list files', '--output-format', 'events', '--data', dir], { cwd: data.path });
    expect(run.code).toBe(0);
    const lines = run.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; seq?: number; session_id?: string });
    const result = lines.at(-1);
    expect(result).toMatchObject({ type: 'result', subtype: 'success' });
    const events = lines.slice(0, -1);
    expect(events.map((event) => event.type)).toContain('tool/result');
    const shown = await runDsh(['show', String(result?.session_id), '--json', '--data', dir]);
    const stored = (JSON.parse(shown.stdout) as { events: unknown[] }).events;
    // Exactly the session's events as stored, from the first one this run appended.
    expect(events).toEqual(stored.slice(events[0]?.seq));
    expect(events.at(-1)?.type).toBe('turn/end');
  });

  it('takes the prompt as a positional argument anywhere, or from stdin', { timeout: 120_000 }, async () => {
    const dir = join(data.path, 'd');
    const first = await printJson(['--name', 'x', '-p', 'hello', '--data', dir]);
    // The command from issue 15 that used to fail with "Option '-p' argument is ambiguous":
    const resumed = await printJson(['-p', '--resume', 'x', 'hi', '--data', dir]);
    expect(resumed.session_id).toBe(first.session_id);
    expect(resumed.turn).toBe(2);
    const piped = await printJson(['-p', '--resume', 'x', '--data', dir], { stdin: 'list files\n' });
    expect(piped.turn).toBe(3);
    const shown = await runDsh(['show', 'x', '--data', dir]);
    expect(shown.stdout).toMatch(/user\/message\s+list files/);
  });

  it('refuses an unknown option naming the closest valid one', { timeout: 60_000 }, async () => {
    const run = await runDsh(['-p', 'hi', '--output-fromat', 'json']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("dsh: USAGE: Unknown option '--output-fromat' for print mode; did you mean '--output-format'?");
  });
});
