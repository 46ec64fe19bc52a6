/**
 * SPEC §25 through the real bin: `dsh completion bash|zsh|fish` prints a script generated from the
 * command table — bash completes commands and each command's options (run in a real bash), and every
 * command and option of the table appears in all three scripts.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { COMMANDS, PRINT_COMMAND } from '../src/command-spec.js';
import { runDsh } from '@dsh/test-utils';

/** What bash's `_dsh` offers for `words`, the cursor on the last word. */
function complete(script: string, words: string[]): string[] {
  const line = `${script}\nCOMP_WORDS=(${words.map((word) => `'${word}'`).join(' ')}); COMP_CWORD=${String(words.length - 1)}; _dsh; printf '%s\\n' "\${COMPREPLY[@]}"`;
  const ran = spawnSync('bash', ['-c', line], { encoding: 'utf8' });
  return ran.stdout.split('\n').filter(Boolean);
}

describe('dsh completion (SPEC §25)', () => {
  it('bash completes commands, print mode options and each command’s own options', { timeout: 60_000 }, async () => {
    const bash = await runDsh(['completion', 'bash']);
    expect(bash.code, bash.stderr).toBe(0);
    expect(complete(bash.stdout, ['dsh', 'fo'])).toEqual(['fork']);
    expect(complete(bash.stdout, ['dsh', 'fork', 'base', '--wo'])).toEqual(['--worktree']);
    expect(complete(bash.stdout, ['dsh', '--output-f'])).toEqual(['--output-format']);
    expect(complete(bash.stdout, ['dsh', 'peers', '--re'])).toEqual(['--remove']);
  });

  it(
    'every command and option of the table is in the bash, zsh and fish scripts; another shell is a usage error',
    { timeout: 60_000 },
    async () => {
      for (const shell of ['bash', 'zsh', 'fish']) {
        const script = (await runDsh(['completion', shell])).stdout;
        for (const spec of [...COMMANDS, PRINT_COMMAND]) {
          if (spec !== PRINT_COMMAND) expect(script, `${shell}: ${spec.name}`).toContain(spec.name);
          for (const option of Object.keys(spec.options))
            expect(script, `${shell}: ${spec.name} --${option}`).toMatch(new RegExp(`(--|-l )${option}\\b`));
        }
      }
      const refused = await runDsh(['completion', 'tcsh']);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain("dsh completion writes a script for bash, zsh, fish; received 'tcsh'");
    },
  );
});
