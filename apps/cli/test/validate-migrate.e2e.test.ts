import { copyFile, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeJsonl } from 'dsh-codec';
import { openSessionStore } from 'dsh-host';
import { makeTempDir, runDsh, type TempDir } from '@dsh/test-utils';

const fixture = (name: string) => fileURLToPath(new URL(`./__fixtures__/${name}`, import.meta.url));
const example = (name: string) => fileURLToPath(new URL(`../examples/${name}`, import.meta.url));

/** One log per released format version: V0 and V4 are the bundled examples; V5 holds reasoning blocks; V6 workspace notes; V7 the current header. */
const LOGS = [
  { version: '0', path: example('v0-legacy-session.jsonl') },
  { version: '1', path: fixture('v1-session.jsonl') },
  { version: '2', path: fixture('v2-session.jsonl') },
  { version: '3', path: fixture('v3-session.jsonl') },
  { version: '4', path: example('v4-fork-child.jsonl') },
  { version: '5', path: fixture('v5-session.jsonl') },
  { version: '6', path: fixture('v6-session.jsonl') },
  { version: '7', path: fixture('v7-session.jsonl') },
];

let dir: TempDir;
beforeEach(async () => {
  dir = await makeTempDir('dsh-cli-files-');
});
afterEach(async () => {
  await dir.remove();
});

describe('dsh validate', () => {
  it.each(LOGS)('exits 0 for a valid V$version log', { timeout: 60_000 }, async ({ version, path }) => {
    const result = await runDsh(['validate', path]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`valid V${version} log`);
  });

  it('exits 1 with the code and line for an invalid log', { timeout: 90_000 }, async () => {
    const lines = (await readFile(fixture('v3-session.jsonl'), 'utf8')).split('\n');
    const broken = join(dir.path, 'broken.jsonl');
    // turn/end for a turn that never started, on line 5.
    lines[4] = JSON.stringify({ seq: 3, type: 'turn/end', time: 1720000000200, data: { turn: 7, reason: { kind: 'completed' } } });
    await writeFile(broken, lines.join('\n'));
    const invalid = await runDsh(['validate', broken]);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toMatch(/dsh: INVALID_\w+: .*line 5/);

    const garbled = join(dir.path, 'garbled.jsonl');
    const good = (await readFile(fixture('v2-session.jsonl'), 'utf8')).split('\n');
    good[2] = '{"seq":1,"type":';
    await writeFile(garbled, good.join('\n'));
    const corrupt = await runDsh(['validate', garbled]);
    expect(corrupt.code).toBe(1);
    expect(corrupt.stderr).toMatch(/dsh: (CORRUPT|MALFORMED_JSON): .*line 3/);

    const newer = join(dir.path, 'newer.jsonl');
    await writeFile(newer, '{"format":"dsh-session","version":99,"id":"x","createdAt":0,"inheritedEventCount":0}\n');
    const unsupported = await runDsh(['validate', newer]);
    expect(unsupported.code).toBe(1);
    expect(unsupported.stderr).toContain('UNSUPPORTED_VERSION');
    expect(unsupported.stderr).toContain('upgrade');
  });

  it('reports a torn final line as a torn tail, not corruption', { timeout: 60_000 }, async () => {
    const torn = join(dir.path, 'torn.jsonl');
    await writeFile(torn, `${(await readFile(fixture('v3-session.jsonl'), 'utf8')).trimEnd()}\n{"seq":11,"type":"turn/st`);
    const result = await runDsh(['validate', torn]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('TORN_TAIL');
    expect(result.stderr).toContain('line 13');
  });

  it('exits 1 for a missing file', { timeout: 60_000 }, async () => {
    const result = await runDsh(['validate', join(dir.path, 'nope.jsonl')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('FILE_NOT_FOUND');
  });
});

describe('dsh migrate', () => {
  it.each(LOGS)('prints a V$version log as V7 JSONL that validates as V7', { timeout: 60_000 }, async ({ path }) => {
    const result = await runDsh(['migrate', path]);
    expect(result.code).toBe(0);
    const decoded = decodeJsonl(result.stdout);
    expect(decoded.sourceVersion).toBe(7);
    expect(decoded.events).toEqual(decodeJsonl(await readFile(path, 'utf8'), { sessionId: decoded.header.id }).events);
    expect(result.stdout.endsWith('\n')).toBe(true);
  });

  it('--write replaces the file atomically and keeps the original as FILE.bak', { timeout: 90_000 }, async () => {
    const file = join(dir.path, 'old.jsonl');
    await copyFile(fixture('v1-session.jsonl'), file);
    const original = await readFile(file, 'utf8');
    const printed = (await runDsh(['migrate', file])).stdout;

    const written = await runDsh(['migrate', file, '--write']);
    expect(written.code).toBe(0);
    expect(written.stdout).toBe('');
    expect(written.stderr).toContain('from V1 to V7');
    expect(await readFile(file, 'utf8')).toBe(printed);
    expect(await readFile(`${file}.bak`, 'utf8')).toBe(original);
    expect((await runDsh(['validate', file])).stdout).toContain('valid V7 log');

    const again = await runDsh(['migrate', file, '--write']);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('already V7');
    expect(await readFile(`${file}.bak`, 'utf8')).toBe(original);
  });

  it('--write rewrites a CR-only V0 log in LF with the same events, keeping the original as FILE.bak', { timeout: 90_000 }, async () => {
    const file = join(dir.path, 'mac.jsonl');
    const lf = await readFile(example('v0-legacy-session.jsonl'), 'utf8');
    const original = lf.replaceAll('\n', '\r');
    await writeFile(file, original);
    expect((await runDsh(['validate', file])).stdout).toContain('valid V0 log');
    const written = await runDsh(['migrate', file, '--write']);
    expect(written.code).toBe(0);
    expect(written.stderr).toContain('from V0 with CR line endings to V7');
    const text = await readFile(file, 'utf8');
    expect(text.includes('\r')).toBe(false);
    expect(decodeJsonl(text).events).toEqual(decodeJsonl(lf, { sessionId: 'mac' }).events);
    expect(await readFile(`${file}.bak`, 'utf8')).toBe(original);
  });
});

describe('dsh migrate --write is one more writer of the session', () => {
  it('refuses with SESSION_BUSY while another process holds the session, and leaves the log untouched', { timeout: 120_000 }, async () => {
    const store = await openSessionStore({ dir: dir.path });
    try {
      const session = await store.create({ id: 'held', title: 'held here' });
      await session.flush();
      const before = await readFile(join(dir.path, 'held.jsonl'), 'utf8');
      const result = await runDsh(['migrate', join(dir.path, 'held.jsonl'), '--write']);
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain('SESSION_BUSY');
      expect(result.stderr).toContain(`pid ${process.pid}`);
      // The holder keeps appending to the very file it opened: nothing replaced it under the writer.
      session.append('session/title', { title: 'still mine' });
      await session.flush();
      await session.close();
      const after = await readFile(join(dir.path, 'held.jsonl'), 'utf8');
      expect(after).not.toBe(before);
      expect(decodeJsonl(after).events.at(-1)).toMatchObject({ type: 'session/title', data: { title: 'still mine' } });
      expect(await readdir(dir.path)).not.toContain('held.jsonl.bak');
    } finally {
      await store.close();
    }
  });

  it('takes the lease when it is free, and uses temp names a store removes if it is interrupted', { timeout: 120_000 }, async () => {
    await copyFile(fixture('v3-session.jsonl'), join(dir.path, 'free.jsonl'));
    const result = await runDsh(['migrate', join(dir.path, 'free.jsonl'), '--write']);
    expect(result.code).toBe(0);
    expect(decodeJsonl(await readFile(join(dir.path, 'free.jsonl'), 'utf8')).sourceVersion).toBe(7);
    // What a SIGKILL between the temp write and the rename leaves behind: removed when a store opens.
    await writeFile(join(dir.path, '.free.999999999.0a1b2c.tmp'), 'half of a migrated log');
    await writeFile(join(dir.path, '.free.999999999.0a1b2d.bak.tmp'), 'half of a backup');
    const store = await openSessionStore({ dir: dir.path });
    await store.close();
    expect((await readdir(dir.path)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});
