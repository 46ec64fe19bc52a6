import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { printJson, runDsh } from '@dsh/test-utils';
import { useCliTestDirs } from './cli-test-dirs.js';

const dirs = useCliTestDirs('dsh-fork-cost', { work: true });

/** Whether the data folder holds the summary file of `id` (`.summaries/<id>`, rebuilt by whoever reads that summary). */
function hasSummary(id: string): boolean {
  return existsSync(join(dirs.data.path, '.summaries', id));
}

describe('dsh fork reads only what it forks (SPEC §24)', () => {
  it('dsh fork ID reads no other session: a missing summary of another session stays missing', { timeout: 120_000 }, async () => {
    const data = ['--data', dirs.data.path];
    const parent = await printJson(['-p', 'list files', '--name', 'parent', ...data], { cwd: dirs.work.path });
    const other = await printJson(['-p', 'list files', '--name', 'other', ...data], { cwd: dirs.work.path });
    const otherId = other.session_id as string;
    await rm(join(dirs.data.path, '.summaries', otherId));
    const forked = await runDsh(['fork', parent.session_id as string, ...data], { cwd: dirs.work.path });
    expect(forked.code, forked.stderr).toBe(0);
    expect(hasSummary(otherId)).toBe(false);
    // The observation is real: listing the sessions reads that summary, so it is written again.
    const listed = await runDsh(['sessions', ...data]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(hasSummary(otherId)).toBe(true);
  });
});
