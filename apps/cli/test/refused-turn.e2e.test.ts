/**
 * SPEC §25 through the real bin: a turn whose tool calls were all refused (here `NO_WORKSPACE`, the
 * keyless model's write in a session without a cwd) is not `success`: JSON says
 * `error_during_execution` with the refusal's code and lists the calls in `permission_denials`, text
 * mode says so on stderr, and the exit code is 1. A turn with one refused call among others that ran
 * stays `success`, the refusal listed (as Claude Code lists its permission denials).
 */
import { copyFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runDsh } from '@dsh/test-utils';
import { useCliTestDirs } from './cli-test-dirs.js';

const V0_LOG = fileURLToPath(new URL('../examples/v0-legacy-session.jsonl', import.meta.url));
const dirs = useCliTestDirs('dsh-cli-refused', { work: true });

/** A data directory holding the V0 legacy session, which records no cwd. */
async function legacyStore(): Promise<string> {
  const dir = join(dirs.data.path, 'store');
  await runDsh(['sessions', '--data', dir]);
  await copyFile(V0_LOG, join(dir, 'legacy.jsonl'));
  return dir;
}

describe('a turn whose tool calls were all refused is not success (SPEC §25)', () => {
  it('json: error_during_execution, is_error, the refusal code, each call in permission_denials, exit 1', { timeout: 60_000 }, async () => {
    const dir = await legacyStore();
    const args = ['-p', 'write greet.txt: hi', '--resume', 'legacy', '--model', 'keyless', '--output-format', 'json', '--data', dir];
    const run = await runDsh(args, { cwd: dirs.work.path });
    expect(run.code, run.stderr).toBe(1);
    const result = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(result).toMatchObject({
      type: 'result',
      subtype: 'error_during_execution',
      is_error: true,
      isError: true,
      errorCode: 'NO_WORKSPACE',
      permission_denials: [{ tool_name: 'write_file', tool_input: { path: 'greet.txt', content: 'hi' }, code: 'NO_WORKSPACE' }],
    });
    expect(String(result.errorMessage)).toContain(
      'Every tool call of the turn was refused, so none of them ran: write_file (NO_WORKSPACE)',
    );
    // The keyless model's own answer says it was refused, never that it was written.
    expect(String(result.result)).not.toMatch(/\bwritten\b|\bwrote\b/i);
    expect(await readdir(dirs.work.path)).toEqual(['notes.md']);
  });

  it('text: the refusal and the failed turn on stderr, exit 1', { timeout: 60_000 }, async () => {
    const dir = await legacyStore();
    const run = await runDsh(['-p', 'write greet.txt: hi', '--resume', 'legacy', '--model', 'keyless', '--data', dir], {
      cwd: dirs.work.path,
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('dsh: write_file was refused (NO_WORKSPACE): The write_file call was refused');
    expect(run.stderr).toContain('dsh: the turn failed (NO_WORKSPACE): no tool call it made ran');
  });

  it('one refused call beside one that ran: success, the refused one listed and said on stderr', { timeout: 60_000 }, async () => {
    const file = join(dirs.data.path, 'script.json');
    const calls = [
      { name: 'list_files', arguments: { path: '.' } },
      { name: 'read_file', arguments: { path: '.git/config' } },
    ];
    await writeFile(file, JSON.stringify([{ toolCalls: calls }, { text: 'listed' }]));
    const dir = join(dirs.data.path, 'store');
    const json = await runDsh(['-p', 'look', '--model', `scripted:${file}`, '--output-format', 'json', '--data', dir], {
      cwd: dirs.work.path,
    });
    expect(json.code, json.stderr).toBe(0);
    const result = JSON.parse(json.stdout) as Record<string, unknown>;
    expect(result).toMatchObject({ subtype: 'success', is_error: false, result: 'listed' });
    expect(result.permission_denials).toMatchObject([
      { tool_name: 'read_file', code: 'PATH_REFUSED', tool_input: { path: '.git/config' } },
    ]);
    expect(result).not.toHaveProperty('errorCode');
    const text = await runDsh(['-p', 'look', '--model', `scripted:${file}`, '--data', dir], { cwd: dirs.work.path });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stderr).toContain('dsh: read_file was refused (PATH_REFUSED)');
    expect(text.stderr).not.toContain('the turn failed');
  });
});
