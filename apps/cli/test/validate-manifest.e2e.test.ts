// `dsh validate` / `dsh migrate` of a JSONL store's manifest file (format V7, SPEC §24): the file is
// read with the sealed segments its header names, as one self-contained log
// (docs/decisions/2026-12-07-jsonl-forks-by-reference.md).
import { readdir, readFile, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeJsonl, type SessionEvent } from 'dsh-codec';
import { makeTempDir, runDsh, type TempDir } from '@dsh/test-utils';
import { writeSealedSession } from './sealed-session.js';

let dir: TempDir;
/** The events of the sealed session `whole` in `dir` (7 turns of 200 kB: past 1 MiB, so its writer seals them). */
let events: SessionEvent[];
const file = () => join(dir.path, 'whole.jsonl');

beforeEach(async () => {
  dir = await makeTempDir('dsh-cli-manifest-');
  events = await writeSealedSession(dir.path);
});
afterEach(async () => {
  await dir.remove();
});

describe('dsh validate and dsh migrate of a manifest file', () => {
  it('validate reads it with its segments: a valid V7 log with every event', { timeout: 60_000 }, async () => {
    // The file itself holds a header naming its segment and few lines: the events are the segment's.
    const header = JSON.parse((await readFile(file(), 'utf8')).split('\n')[0] as string) as { segments?: unknown[] };
    expect(header.segments?.length).toBeGreaterThan(0);
    expect((await stat(file())).size).toBeLessThan(100_000);
    const result = await runDsh(['validate', file()]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`valid V7 log of session whole, ${String(events.length)} events`);
  });

  it(
    'migrate prints one self-contained log naming no segment; --write leaves the current manifest as it is',
    { timeout: 60_000 },
    async () => {
      const printed = await runDsh(['migrate', file()]);
      expect(printed.code, printed.stderr).toBe(0);
      const decoded = decodeJsonl(printed.stdout);
      expect(decoded.header).not.toHaveProperty('segments');
      expect(decoded.events).toEqual(events);
      const before = await readFile(file());
      const written = await runDsh(['migrate', file(), '--write']);
      expect(written.code, written.stderr).toBe(0);
      expect(written.stderr).toContain('already V7');
      expect((await readFile(file())).equals(before)).toBe(true);
    },
  );

  it(
    'a missing segment is CORRUPT naming it; a bound the segments exceed is FILE_TOO_LARGE, before a segment is read',
    { timeout: 60_000 },
    async () => {
      const small = await runDsh(['validate', file(), '--max-bytes', '200000']);
      expect(small.code).toBe(1);
      expect(small.stderr).toContain('FILE_TOO_LARGE');
      expect(small.stderr).toContain('segments');
      const [segment] = await readdir(join(dir.path, '.segments'));
      await rename(join(dir.path, '.segments', segment as string), join(dir.path, 'moved-away'));
      for (const command of [
        ['validate', file()],
        ['migrate', file()],
      ]) {
        const result = await runDsh(command);
        expect(result.code).toBe(1);
        expect(result.stderr).toContain('CORRUPT');
        expect(result.stderr).toContain(segment as string);
        expect(result.stdout).toBe('');
      }
    },
  );
});
