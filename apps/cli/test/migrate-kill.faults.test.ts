// SIGKILL during `dsh migrate FILE --write` at a random time (mostly while the process starts or
// before the rename): the log is always either the original or the migrated file (the same events),
// never half-written, and a store opening the directory removes the leftovers. Kills right after each
// step of the rewrite (temp half-written, fsynced, backup kept, renamed, directory fsynced) are in
// packages/dsh-session/src/jsonl/rewrite-kill.faults.test.ts.
import { copyFile, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { CURRENT_FORMAT_VERSION, decodeJsonl } from 'dsh-codec';
import { openSessionStore } from 'dsh-host';
import { faultTrials, makeTempDir, reportFaults } from '@dsh/test-utils';
import { after, killDsh } from './kill-dsh.js';

const V3 = fileURLToPath(new URL('./__fixtures__/v3-session.jsonl', import.meta.url));
const figures = { trials: 0, acknowledged: 0, lost: 0, halfWritten: 0, migrated: 0 };
afterAll(() => {
  reportFaults('kill9-migrate', figures);
});

describe('SIGKILL during migrate --write', { timeout: 900_000 }, () => {
  it('leaves the original or the migrated log, never a mix, and no temp file once a store opens', async () => {
    const dir = await makeTempDir();
    try {
      const expected = decodeJsonl(await readFile(V3, 'utf8'), { sessionId: 'm' }).events;
      for (let trial = 0; trial < faultTrials(4, 60); trial += 1) {
        const file = join(dir.path, 'm.jsonl');
        await copyFile(V3, file);
        // Its own process group: a kill reaches whatever process the bin runs the command in.
        await killDsh(['migrate', file, '--write'], after(500 + ((trial * 1_307) % 6_000)));
        figures.trials += 1;
        figures.acknowledged += expected.length;
        const decoded = decodeJsonl(await readFile(file, 'utf8'), { sessionId: 'm' });
        if (decoded.tornTail !== undefined) figures.halfWritten += 1;
        if (JSON.stringify(decoded.events) !== JSON.stringify(expected)) figures.lost += 1;
        if (decoded.sourceVersion === CURRENT_FORMAT_VERSION) figures.migrated += 1;
        const store = await openSessionStore({ dir: dir.path });
        await store.close();
        expect((await readdir(dir.path)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
      }
      expect(figures.lost).toBe(0);
      expect(figures.halfWritten).toBe(0);
    } finally {
      await dir.remove();
    }
  });
});
