// `dsh migrate FILE --to 6` (SPEC §24): a V7 log — a JSONL store's manifest with its sealed segments, or a
// plain V7 file — back to one self-contained V6 log with the same events, which the frozen V6 validator
// accepts and a forward `dsh migrate` reads back unchanged; `--write` replaces FILE and leaves every segment.
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeJsonl, validate, type SessionEvent } from 'dsh-codec';
import { openSessionStore } from 'dsh-host';
import { makeTempDir, runDsh, type TempDir } from '@dsh/test-utils';
import { writeSealedSession } from './sealed-session.js';

let dir: TempDir;
/** The events of the sealed session `whole` in `dir` (7 turns of 200 kB: past 1 MiB, so its writer seals them). */
let events: SessionEvent[];
const file = () => join(dir.path, 'whole.jsonl');
const segments = async () => (await readdir(join(dir.path, '.segments'))).sort();

function lines(text: string): unknown[] {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as unknown);
}

beforeEach(async () => {
  dir = await makeTempDir('dsh-cli-downgrade-');
  events = await writeSealedSession(dir.path);
});
afterEach(async () => {
  await dir.remove();
});

describe('dsh migrate FILE --to 6', () => {
  it(
    'prints a V7 manifest of a log past 1 MiB as one V6 log the frozen V6 validator accepts, with the same events; migrate reads it forward unchanged',
    { timeout: 90_000 },
    async () => {
      const manifest = lines(await readFile(file(), 'utf8'))[0] as { segments?: unknown[] };
      expect(manifest.segments?.length).toBeGreaterThan(0);
      const printed = await runDsh(['migrate', file(), '--to', '6']);
      expect(printed.code, printed.stderr).toBe(0);
      expect(printed.stderr).toBe('');
      expect(Buffer.byteLength(printed.stdout)).toBeGreaterThan(1024 * 1024);
      const [header, ...rest] = lines(printed.stdout);
      expect(header).toEqual({
        format: 'dsh-session',
        version: 6,
        id: 'whole',
        createdAt: expect.any(Number) as number,
        inheritedEventCount: 0,
      });
      expect(validate(6, { header, events: rest })).toEqual([]);
      expect(rest).toEqual(events);

      const v6 = join(dir.path, 'elsewhere-v6.jsonl');
      await writeFile(v6, printed.stdout);
      expect((await runDsh(['validate', v6])).stdout).toContain(`valid V6 log of session whole, ${String(events.length)} events`);
      const forward = await runDsh(['migrate', v6]);
      expect(forward.code, forward.stderr).toBe(0);
      const decoded = decodeJsonl(forward.stdout);
      expect(decoded.sourceVersion).toBe(7);
      expect(decoded.header).not.toHaveProperty('segments');
      expect(decoded.events).toEqual(events);
      // --to 7 is today's migrate: the same bytes as without it.
      const current = await runDsh(['migrate', v6, '--to', '7']);
      expect(current.stdout).toBe(forward.stdout);
    },
  );

  it(
    '--write replaces the manifest with the whole V6 log, keeps it as FILE.bak and deletes no segment; the store reads the same events',
    { timeout: 90_000 },
    async () => {
      const before = await readFile(file());
      const named = await segments();
      const written = await runDsh(['migrate', file(), '--to', '6', '--write']);
      expect(written.code, written.stderr).toBe(0);
      expect(written.stderr).toBe(`migrated ${file()} from V7 to V6; the original is kept as ${file()}.bak\n`);
      const [header, ...rest] = lines(await readFile(file(), 'utf8'));
      expect(header).not.toHaveProperty('segments');
      expect(validate(6, { header, events: rest })).toEqual([]);
      expect(rest).toEqual(events);
      expect((await readFile(`${file()}.bak`)).equals(before)).toBe(true);
      expect(await segments()).toEqual(named);
      const again = await runDsh(['migrate', file(), '--to', '6', '--write']);
      expect(again.stderr).toBe(`${file()} is already V6; nothing to write\n`);
      const store = await openSessionStore({ dir: dir.path });
      try {
        expect((await store.inspect('whole')).events).toEqual(events);
      } finally {
        await store.close();
      }
    },
  );

  it(
    'a downgrade of a parent with --write leaves its fork child, which names the same segments, whole — also after the store collects',
    { timeout: 90_000 },
    async () => {
      const cut = events.length - 2;
      const store = await openSessionStore({ dir: dir.path });
      let child: SessionEvent[];
      try {
        await (await store.fork('whole', { atSeq: cut, id: 'child' })).close();
        child = (await store.inspect('child')).events.slice();
      } finally {
        await store.close();
      }
      const childHeader = lines(await readFile(join(dir.path, 'child.jsonl'), 'utf8'))[0] as { segments?: unknown[] };
      expect(childHeader.segments?.length).toBeGreaterThan(0);
      const named = await segments();
      const written = await runDsh(['migrate', file(), '--to', '6', '--write']);
      expect(written.code, written.stderr).toBe(0);
      expect(await segments()).toEqual(named);
      // Without the parent's backup the child alone names the segments; a delete's collection keeps them.
      await rm(`${file()}.bak`);
      const again = await openSessionStore({ dir: dir.path });
      try {
        await again.delete('whole');
        expect(await segments()).toEqual(named);
        expect((await again.inspect('child')).events).toEqual(child);
      } finally {
        await again.close();
      }
    },
  );

  it('a plain V7 file goes back to V6 with its bytes but the version', { timeout: 60_000 }, async () => {
    const plain = join(dir.path, 'plain.jsonl');
    const v7 = (await runDsh(['migrate', file()])).stdout;
    await writeFile(plain, v7);
    const printed = await runDsh(['migrate', plain, '--to', '6']);
    expect(printed.code, printed.stderr).toBe(0);
    expect(printed.stdout).toBe(v7.replace('"version":7', '"version":6'));
  });

  it(
    'refuses UNREPRESENTABLE naming the first event V6 cannot hold (a stored checkpoints: false), printing and writing nothing',
    { timeout: 60_000 },
    async () => {
      const log = join(dir.path, 'no-checkpoints.jsonl');
      const text = [
        '{"format":"dsh-session","version":7,"id":"no-checkpoints","createdAt":1000,"inheritedEventCount":0}',
        '{"seq":0,"type":"session/title","time":1000,"data":{"title":"t"}}',
        '{"seq":1,"type":"session/config","time":1001,"data":{"tools":[],"cwd":"/w","model":"keyless","checkpoints":false}}',
        '',
      ].join('\n');
      await writeFile(log, text);
      expect((await runDsh(['validate', log])).code).toBe(0);
      for (const write of [[], ['--write']]) {
        const result = await runDsh(['migrate', log, '--to', '6', ...write]);
        expect(result.code).toBe(1);
        expect(result.stdout).toBe('');
        expect(result.stderr).toContain(`UNREPRESENTABLE: ${log}: event seq 1 (session/config) holds data format V6 cannot hold`);
        expect(result.stderr).toContain('checkpoints');
        expect(result.stderr).toContain('Nothing was dropped; keep the log at V7.');
      }
      expect(await readFile(log, 'utf8')).toBe(text);
      expect((await readdir(dir.path)).filter((name) => name.startsWith('no-checkpoints.jsonl.bak'))).toEqual([]);
    },
  );

  it('refuses any other target with USAGE naming the versions it writes, reading and writing nothing', { timeout: 60_000 }, async () => {
    const before = await readFile(file());
    for (const target of ['5', '8', 'six', '']) {
      const result = await runDsh(['migrate', file(), '--to', target, '--write']);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(
        `USAGE: --to expects a format version dsh migrate writes, 6 or 7 (current), received '${target}'. Nothing was read or written.`,
      );
    }
    expect((await readFile(file())).equals(before)).toBe(true);
    expect((await readdir(dir.path)).filter((name) => name.includes('.bak'))).toEqual([]);
  });
});
