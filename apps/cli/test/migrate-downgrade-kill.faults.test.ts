// SIGKILL during `dsh migrate FILE --to 6 --write` of a JSONL store's manifest past 1 MiB: FILE is always
// either the manifest (read whole with its segments) or the whole V6 log, with the same events, never
// half-written; no segment is ever deleted (FILE.bak and other children may still name them), and a store
// opening the directory removes the leftovers and reads the same events.
import { copyFile, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeJsonl, type SessionEvent } from 'dsh-codec';
import { materializeLogFile, openSessionStore } from 'dsh-host';
import { faultTrials, makeTempDir, reportFaults } from '@dsh/test-utils';
import { after, killDsh, pathAppears } from './kill-dsh.js';

const figures = { trials: 0, acknowledged: 0, lost: 0, halfWritten: 0, downgraded: 0, segmentsLost: 0 };
afterAll(() => {
  reportFaults('kill9-migrate-to-6', figures);
});

async function createSealed(dir: string): Promise<SessionEvent[]> {
  const store = await openSessionStore({ dir });
  try {
    const session = await store.create({ id: 'm', title: 'sealed' });
    for (let turn = 1; turn <= 6; turn += 1) {
      session.append('turn/start', { turn });
      session.append('user/message', {
        message: { id: `u${String(turn)}`, role: 'user', content: [{ type: 'text', text: 'k'.repeat(250_000) }] },
      });
      session.append('turn/end', { turn, reason: { kind: 'completed' } });
    }
    await session.close();
    return (await store.inspect('m')).events.slice();
  } finally {
    await store.close();
  }
}

describe('SIGKILL during migrate --to 6 --write', { timeout: 900_000 }, () => {
  it('leaves the manifest or the whole V6 log, never a mix, deletes no segment, and no temp file once a store opens', async () => {
    const dir = await makeTempDir('dsh-cli-downgrade-kill-');
    try {
      const expected = await createSealed(dir.path);
      const file = join(dir.path, 'm.jsonl');
      const manifest = join(dir.path, 'manifest-copy');
      await copyFile(file, manifest);
      const segments = (await readdir(join(dir.path, '.segments'))).sort();
      expect(segments.length).toBeGreaterThan(0);
      for (let trial = 0; trial < faultTrials(4, 40); trial += 1) {
        await copyFile(manifest, file);
        for (const name of await readdir(dir.path)) if (name.startsWith('m.jsonl.bak')) await rm(join(dir.path, name));
        // Odd trials are killed the moment FILE.bak appears (the new log is durable, the rename not yet done).
        const when =
          trial % 2 === 1 ? (exited: Promise<unknown>) => pathAppears(`${file}.bak`, exited) : after(400 + ((trial * 1_307) % 5_000));
        await killDsh(['migrate', file, '--to', '6', '--write'], when);
        figures.trials += 1;
        figures.acknowledged += expected.length;
        const bytes = await readFile(file);
        const whole = await materializeLogFile(file, bytes);
        const decoded = decodeJsonl(whole.toString('utf8'));
        if (decoded.tornTail !== undefined) figures.halfWritten += 1;
        if (JSON.stringify(decoded.events) !== JSON.stringify(expected)) figures.lost += 1;
        if (decoded.sourceVersion === 6) figures.downgraded += 1;
        else expect(bytes.equals(await readFile(manifest))).toBe(true);
        if (JSON.stringify((await readdir(join(dir.path, '.segments'))).sort()) !== JSON.stringify(segments)) figures.segmentsLost += 1;
        const store = await openSessionStore({ dir: dir.path });
        try {
          expect((await store.inspect('m')).events).toEqual(expected);
        } finally {
          await store.close();
        }
        expect((await readdir(dir.path)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
      }
      expect(figures.lost).toBe(0);
      expect(figures.halfWritten).toBe(0);
      expect(figures.segmentsLost).toBe(0);
    } finally {
      await dir.remove();
    }
  });
});
