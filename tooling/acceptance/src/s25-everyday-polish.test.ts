/**
 * SPEC §25 — the everyday path's newcomer defects and polish, through the real `dsh` bin: a turn
 * whose tool calls were all refused is not `success`.
 */
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, type TempDir, runDsh } from '@dsh/test-utils';

let dir: TempDir;
let data: string;
beforeEach(async () => {
  dir = await makeTempDir('dsh-acc-s25e-');
  data = join(dir.path, 'data');
});
afterEach(async () => {
  await dir.remove();
});

describe('§25 newcomer defects', () => {
  it(
    '§25 a turn whose tools were all refused (keyless, NO_WORKSPACE) is not success: is_error, the code, exit 1',
    { timeout: 120_000 },
    async () => {
      await mkdir(data, { recursive: true });
      // A V0 log (no header, so no cwd): every tool call of a turn on it is refused NO_WORKSPACE.
      await writeFile(
        join(data, 'legacy.jsonl'),
        '{"seq":0,"type":"turn/start","time":10,"data":{"turn":1}}\n{"seq":1,"type":"user/message","time":11,"data":{"text":"hi"}}\n{"seq":2,"type":"turn/end","time":12,"data":{"turn":1,"reason":"completed"}}\n',
      );
      const run = await runDsh(
        ['-p', 'write out.txt: x', '--resume', 'legacy', '--model', 'keyless', '--output-format', 'json', '--data', data],
        {
          cwd: dir.path,
        },
      );
      expect(run.code).toBe(1);
      expect(JSON.parse(run.stdout)).toMatchObject({
        subtype: 'error_during_execution',
        is_error: true,
        errorCode: 'NO_WORKSPACE',
        permission_denials: [{ tool_name: 'write_file', code: 'NO_WORKSPACE' }],
      });
      expect(await readdir(dir.path)).toEqual(['data']);
    },
  );
});
