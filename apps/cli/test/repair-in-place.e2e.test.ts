/**
 * `dsh repair FILE` changes FILE in place (SPEC §27): the same inode and mode, the closers appended
 * after the bytes as they were (even bytes that are not UTF-8), a symlink's target repaired, an
 * existing FILE.bak never overwritten, a torn last line moved into the backup, FILE_IN_USE while
 * another process holds FILE open — and the temp files a killed fork, repair or export left are
 * removed by the next one in that folder, never another's.
 */
import { open, readdir, readFile, readlink, rm, stat, symlink, writeFile, chmod } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, runDsh, type TempDir } from '@dsh/test-utils';

const LINES = [
  {
    type: 'user',
    uuid: 'u1',
    parentUuid: null,
    sessionId: 'p1',
    timestamp: '2026-01-01T00:00:00.000Z',
    message: { role: 'user', content: 'go' },
  },
  {
    type: 'assistant',
    uuid: 'a1',
    parentUuid: 'u1',
    sessionId: 'p1',
    timestamp: '2026-01-01T00:00:01.000Z',
    message: { id: 'm1', role: 'assistant', content: [{ type: 'tool_use', id: 'c1', name: 'Bash', input: { command: 'ls' } }] },
  },
];
const TEXT = `${LINES.map((line) => JSON.stringify(line)).join('\n')}\n`;

let dir: TempDir;
let file: string;
beforeEach(async () => {
  dir = await makeTempDir('dsh-repair-in-place-');
  file = join(dir.path, 'p1.jsonl');
  await writeFile(file, TEXT);
});
afterEach(async () => {
  await dir.remove();
});

/** The lines of `bytes` after `prefix` (the closers repair appended), parsed. */
function appendedLines(bytes: Buffer, prefix: Buffer): Record<string, unknown>[] {
  expect(bytes.subarray(0, prefix.length).equals(prefix)).toBe(true);
  return bytes
    .subarray(prefix.length)
    .toString('utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('dsh repair FILE in place', () => {
  it('appends to the same inode, keeps the mode (0644 stays 0644) and leaves no temp file', async () => {
    await chmod(file, 0o644);
    const before = await stat(file);
    const result = await runDsh(['repair', file]);
    expect(result.code, result.stderr).toBe(0);
    const after = await stat(file);
    expect(after.ino).toBe(before.ino);
    expect(after.mode & 0o7777).toBe(0o644);
    expect((await stat(`${file}.bak`)).mode & 0o7777).toBe(0o644);
    expect(appendedLines(await readFile(file), Buffer.from(TEXT))).toMatchObject([{ type: 'user', parentUuid: 'a1' }]);
    expect(await readFile(`${file}.bak`, 'utf8')).toBe(TEXT);
    expect((await readdir(dir.path)).sort()).toEqual(['p1.jsonl', 'p1.jsonl.bak']);
  });

  it('never overwrites an existing FILE.bak: the next free FILE.bak.N takes the original', async () => {
    await writeFile(`${file}.bak`, 'an older backup\n');
    await writeFile(`${file}.bak.1`, 'another\n');
    const result = await runDsh(['repair', file]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(`the original is ${file}.bak.2`);
    expect(await readFile(`${file}.bak`, 'utf8')).toBe('an older backup\n');
    expect(await readFile(`${file}.bak.1`, 'utf8')).toBe('another\n');
    expect(await readFile(`${file}.bak.2`, 'utf8')).toBe(TEXT);
  });

  it('repairs the file a symlink names, the link left a link and the backup beside the target', async () => {
    const link = join(dir.path, 'link.jsonl');
    await symlink(file, link);
    const result = await runDsh(['repair', link]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(`through the link ${link}`);
    expect(await readlink(link)).toBe(file);
    expect(appendedLines(await readFile(file), Buffer.from(TEXT))).toHaveLength(1);
    expect(await readFile(`${file}.bak`, 'utf8')).toBe(TEXT);
    expect((await readdir(dir.path)).sort()).toEqual(['link.jsonl', 'p1.jsonl', 'p1.jsonl.bak']);
  });

  it('keeps bytes that are not valid UTF-8 byte for byte, in FILE and in FILE.bak', async () => {
    const odd = Buffer.concat([
      Buffer.from(JSON.stringify({ type: 'summary', summary: 'x' }).slice(0, -2)),
      Buffer.from([0xff, 0xfe, 0xc3]),
      Buffer.from('"}\n'),
      Buffer.from(TEXT),
    ]);
    await writeFile(file, odd);
    const result = await runDsh(['repair', file]);
    expect(result.code, result.stderr).toBe(0);
    expect(appendedLines(await readFile(file), odd)).toHaveLength(1);
    expect((await readFile(`${file}.bak`)).equals(odd)).toBe(true);
  });

  it('moves a torn last line out into the backup and reports it, the closers on a line of their own', async () => {
    const torn = '{"type":"user","uuid":"u2","parentUu';
    await writeFile(file, TEXT + torn);
    const result = await runDsh(['repair', file]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(`torn last line (${String(torn.length)} bytes) was moved out`);
    expect(appendedLines(await readFile(file), Buffer.from(TEXT))).toMatchObject([{ type: 'user', parentUuid: 'a1' }]);
    expect(await readFile(`${file}.bak`, 'utf8')).toBe(TEXT + torn);
  });

  it('refuses FILE_IN_USE while another process holds FILE open, and writes nothing', async (context) => {
    if (process.platform !== 'linux') context.skip();
    const held = await open(file, 'a');
    try {
      const result = await runDsh(['repair', file]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('FILE_IN_USE');
      expect(result.stderr).toContain(`pid ${String(process.pid)}`);
    } finally {
      await held.close();
    }
    expect(await readFile(file, 'utf8')).toBe(TEXT);
    expect(await readdir(dir.path)).toEqual(['p1.jsonl']);
  });

  it('repairs a file another process only reads (tail -f, a viewer)', async () => {
    const reader = await open(file, 'r');
    try {
      const result = await runDsh(['repair', file]);
      expect(result.code, result.stderr).toBe(0);
    } finally {
      await reader.close();
    }
    expect(appendedLines(await readFile(file), Buffer.from(TEXT))).toHaveLength(1);
  });
});

describe('temp files a killed dsh left', () => {
  const stale = '.p1.jsonl.bak.dsh-999999999-0123456789ab.tmp';
  const live = `.p1.jsonl.dsh-${String(process.pid)}-0123456789ab.tmp`;
  const foreign = '.p1.jsonl.0123456789ab.tmp';

  /** Runs `command` so that it writes into `dir.path` (export: of `file` imported into a data folder elsewhere). */
  async function run(command: 'repair' | 'fork' | 'export') {
    if (command === 'repair') return runDsh(['repair', file]);
    if (command === 'fork') return runDsh(['fork', file, '--at', 'u1']);
    const data = join(dir.path, '..', `${dir.path.split('/').at(-1) ?? 'x'}-data`);
    const imported = await runDsh(['import', file, '--data', data, '--json']);
    expect(imported.code, imported.stderr).toBe(0);
    const id = (JSON.parse(imported.stdout) as { sessions: { id: string }[] }[])[0]?.sessions[0]?.id as string;
    const result = await runDsh(['export', id, '--format', 'codex', '--out', `${dir.path}/`, '--data', data]);
    await rm(data, { recursive: true, force: true });
    return result;
  }

  for (const command of ['repair', 'fork', 'export'] as const) {
    it(`are removed by the next ${command} in that folder — only dsh's own names, only of a process that is gone`, async () => {
      for (const name of [stale, live, foreign]) await writeFile(join(dir.path, name), 'half a file');
      const result = await run(command);
      expect(result.code, result.stderr).toBe(0);
      const names = await readdir(dir.path);
      expect(names).not.toContain(stale);
      expect(names).toContain(live);
      expect(names).toContain(foreign);
    });
  }
});
