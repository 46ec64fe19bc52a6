/**
 * SPEC §27 "Bounded inputs" through the real bin: print mode refuses a prompt (stdin and argument
 * together) over `--max-bytes` with `PROMPT_TOO_LARGE` before anything is written, and takes a long
 * system prompt from `--system-prompt-file FILE`.
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { printJson, runDsh, spawnDsh, waitFor } from '@dsh/test-utils';
import { useCliTestDirs } from './cli-test-dirs.js';

const dirs = useCliTestDirs('dsh-cli-print-bounds');

describe('print mode bounds its prompt (SPEC §27)', () => {
  it('stdin and argument together over --max-bytes: PROMPT_TOO_LARGE, no session and no data folder', { timeout: 120_000 }, async () => {
    const dir = join(dirs.data.path, 'store');
    const cases: { args: string[]; stdin: string }[] = [
      { args: ['-p', '--max-bytes', '100'], stdin: 'x'.repeat(101) },
      { args: ['-p', 'y'.repeat(40), '--max-bytes', '100'], stdin: 'x'.repeat(70) },
      { args: ['-p', 'y'.repeat(101), '--max-bytes', '100'], stdin: '' },
    ];
    for (const { args, stdin } of cases) {
      const refused = await runDsh([...args, '--data', dir], { stdin });
      expect(refused.code, refused.stderr).toBe(1);
      expect(refused.stderr).toMatch(/^dsh: PROMPT_TOO_LARGE: The prompt \(stdin and argument together\) must be at most 100 bytes/);
      expect(existsSync(dir)).toBe(false);
    }
    const json = await runDsh(['-p', '--max-bytes', '100', '--output-format', 'json', '--data', dir], { stdin: 'x'.repeat(500) });
    expect(JSON.parse(json.stdout)).toMatchObject({ type: 'result', is_error: true, errorCode: 'PROMPT_TOO_LARGE' });
    expect(existsSync(dir)).toBe(false);
    // At the bound it runs.
    const within = await printJson(['-p', 'y'.repeat(30), '--max-bytes', '100', '--data', dir], { stdin: 'x'.repeat(68) });
    expect(within.is_error).toBe(false);
  });

  it(
    'a stdin that goes quiet without ending is named on stderr once, and read to its end when it closes',
    { timeout: 120_000 },
    async () => {
      const child = spawnDsh(['-p', 'question', '--output-format', 'json', '--data', join(dirs.data.path, 'store')]);
      let stderr = '';
      let stdout = '';
      child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      const closed = new Promise<number | null>((resolve) => child.once('close', resolve));
      child.stdin?.write('piped part\n');
      await waitFor('the notice', () => stderr.includes('dsh: stdin is still open (11 B read'), 60_000);
      child.stdin?.end();
      expect(await closed).toBe(0);
      expect(stderr.match(/stdin is still open/g)).toHaveLength(1);
      expect((JSON.parse(stdout) as { is_error: boolean }).is_error).toBe(false);
    },
  );

  it('--system-prompt-file FILE is the system prompt (recorded), and refused beside --system-prompt', { timeout: 120_000 }, async () => {
    const dir = join(dirs.data.path, 'store');
    const file = join(dirs.data.path, 'system.md');
    const text = `You are terse.\n${'Rule. '.repeat(2000)}\n`;
    await writeFile(file, text);
    const run = await printJson(['-p', 'hi', '--system-prompt-file', file, '--data', dir]);
    const shown = await runDsh(['show', String(run.session_id), '--json', '--data', dir]);
    const events = (JSON.parse(shown.stdout) as { events: { type: string; data: { systemPrompt?: string } }[] }).events;
    expect(events.find((event) => event.type === 'agent/system-prompt')?.data.systemPrompt).toBe(text);
    const both = await runDsh(['-p', 'hi', '--system-prompt', 'x', '--system-prompt-file', file, '--data', dir]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--system-prompt and --system-prompt-file both set the system prompt');
    const missing = await runDsh(['-p', 'hi', '--system-prompt-file', join(dirs.data.path, 'none.md'), '--data', dir]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('FILE_NOT_FOUND');
  });
});
