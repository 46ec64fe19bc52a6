// Issue 22: file tool calls with paths no other program could reach (thousands of levels, names over
// NAME_MAX, arguments over PATH_MAX). Zero escapes: every one is refused PATH_TOO_LONG and the
// working directory's tree is unchanged afterwards, so nothing is left that `rm -r` cannot remove.
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentError } from 'dsh-agent';
import { makeDirTool } from './make-dir-tool.js';
import { writeFileTool } from './write-file-tool.js';
import { faultTrials, makeTempDir, reportFaults, type TempDir } from '@dsh/test-utils';
import { toolContext } from '../__fixtures__/agent-fixtures.js';

let root: TempDir;
let cwd: string;
beforeAll(async () => {
  root = await makeTempDir('dsh-deep-paths-');
  cwd = join(root.path, 'work');
  await mkdir(join(cwd, 'existing'), { recursive: true });
});
afterAll(async () => {
  await root.remove();
});

/** One attacking path per trial: deep chains of short names, long names, long detours that resolve short. */
function attack(index: number): string {
  const levels = 257 + ((index * 7919) % 4000);
  switch (index % 4) {
    case 0:
      return Array.from({ length: levels }, () => 'd').join('/');
    case 1:
      return `existing/${Array.from({ length: levels }, (_, level) => `n${String(level)}`).join('/')}/file.txt`;
    case 2:
      return `existing/${'x'.repeat(256 + (index % 500))}/file.txt`;
    default:
      return `${'existing/../'.repeat(400 + (index % 100))}deep/${'y'.repeat(100)}`;
  }
}

describe('deep and long tool paths', () => {
  it('are refused PATH_TOO_LONG and create nothing', { timeout: 600_000 }, async () => {
    const trials = faultTrials(200, 5_000);
    const before = (await readdir(cwd, { recursive: true })).sort();
    let refused = 0;
    let escapes = 0;
    for (let index = 0; index < trials; index++) {
      const path = attack(index);
      try {
        await (index % 2 === 0 ? makeDirTool.run({ path }, toolContext(cwd)) : writeFileTool.run({ path, content: 'x' }, toolContext(cwd)));
        escapes += 1;
      } catch (error) {
        if (AgentError.is(error) && error.code === 'PATH_TOO_LONG') refused += 1;
        else escapes += 1;
      }
    }
    const after = (await readdir(cwd, { recursive: true })).sort();
    // Anything created is an escape too, even if the call then failed.
    if (JSON.stringify(after) !== JSON.stringify(before)) escapes += 1;
    reportFaults('deep-tool-paths', { trials, acknowledged: refused, escapes });
    expect({ refused, escapes, after }).toEqual({ refused: trials, escapes: 0, after: before });
  });
});
