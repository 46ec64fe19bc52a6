/**
 * SPEC §25 through the real bin: `--name` refuses a name another session already carries
 * (`NAME_TAKEN`, naming that session) in print mode, `dsh fork` and `dsh rename`, creating nothing;
 * a session keeping its own name, and a retry under the same idempotency key, are not refused.
 */
import { describe, expect, it } from 'vitest';
import { printJson, runDsh } from '@dsh/test-utils';
import { useCliTestDirs } from './cli-test-dirs.js';

const dirs = useCliTestDirs('dsh-cli-name-taken');

describe('--name refuses a name already taken (SPEC §25)', () => {
  it(
    'print mode, dsh fork and dsh rename refuse NAME_TAKEN naming the session that has it; nothing is created',
    { timeout: 120_000 },
    async () => {
      const data = ['--data', dirs.data.path];
      const first = await printJson(['-p', 'hello', '--name', 'plan', ...data]);
      const other = await printJson(['-p', 'hello', '--name', 'other', ...data]);
      const sessions = async () => (await runDsh(['sessions', '--json', ...data])).stdout;
      const before = await sessions();

      const again = await runDsh(['-p', 'hello', '--name', 'plan', ...data]);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain(`dsh: NAME_TAKEN: The name 'plan' is taken by session ${String(first.session_id)}`);
      expect(again.stderr).toContain(`dsh rename ${String(first.session_id)} NEW-NAME`);
      const forked = await runDsh(['-p', 'x', '--resume', 'other', '--fork-session', '--name', 'plan', ...data]);
      expect(forked.stderr).toContain('NAME_TAKEN');
      const fork = await runDsh(['fork', 'other', '--name', 'plan', ...data]);
      expect(fork.stderr).toContain('NAME_TAKEN');
      const renamed = await runDsh(['rename', 'other', 'plan', ...data]);
      expect(renamed.stderr).toContain('NAME_TAKEN');
      const resumed = await runDsh(['-p', 'x', '--resume', 'other', '--name', 'plan', ...data]);
      expect(resumed.stderr).toContain('NAME_TAKEN');
      expect(await sessions()).toBe(before);

      // A session keeps its own name; a fork retried under the same key finds its child again.
      expect((await runDsh(['rename', 'plan', 'plan', ...data])).code).toBe(0);
      expect((await printJson(['-p', 'more', '--resume', 'other', '--name', 'other', ...data])).session_id).toBe(other.session_id);
      const keyed = ['fork', 'other', '--name', 'keyed', '--idempotency-key', 'k1', ...data];
      const child = await runDsh(keyed);
      expect(child.code, child.stderr).toBe(0);
      const retried = await runDsh(keyed);
      expect(retried.code, retried.stderr).toBe(0);
      expect(retried.stdout).toBe(child.stdout);
      // A key of its own does not free a name another session carries.
      const newKey = await runDsh(['fork', 'other', '--name', 'plan', '--idempotency-key', 'k2', ...data]);
      expect(newKey.code).toBe(1);
      expect(newKey.stderr).toContain(`NAME_TAKEN: The name 'plan' is taken by session ${String(first.session_id)}`);
    },
  );
});
