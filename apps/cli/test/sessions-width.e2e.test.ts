/**
 * SPEC §25 through the real bin: `dsh sessions` fits the terminal's width (`COLUMNS`), cutting a long
 * name with `…` and keeping the id whole; without a width (piped, no COLUMNS) every cell stays whole.
 */
import { describe, expect, it } from 'vitest';
import { printJson, runDsh } from '@dsh/test-utils';
import { useCliTestDirs } from './cli-test-dirs.js';

const dirs = useCliTestDirs('dsh-cli-sessions-width');

describe('dsh sessions fits the terminal (SPEC §25)', () => {
  it(
    'COLUMNS=80: every line at most 80 columns, the name cut, the id whole; piped without COLUMNS: whole',
    { timeout: 120_000 },
    async () => {
      const name = `release plan ${'with many words '.repeat(6)}end`;
      const made = await printJson(['-p', 'hello', '--name', name, '--data', dirs.data.path]);
      const narrow = await runDsh(['sessions', '--data', dirs.data.path], { env: { COLUMNS: '80' } });
      expect(narrow.code, narrow.stderr).toBe(0);
      for (const line of narrow.stdout.trimEnd().split('\n')) expect(line.length).toBeLessThanOrEqual(80);
      expect(narrow.stdout).toContain(String(made.session_id));
      expect(narrow.stdout).toContain('release plan with');
      expect(narrow.stdout).toContain('…');
      const piped = await runDsh(['sessions', '--data', dirs.data.path], { env: { COLUMNS: undefined } });
      expect(piped.stdout).toContain(name);
    },
  );
});
