/**
 * `dsh fork FILE` and `dsh repair FILE` through the real bin: refusals name what was expected and
 * write nothing; a fork writes the child beside FILE; repair keeps FILE.bak or leaves FILE alone.
 */
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { codexTranscript, piTranscript, runDsh } from '@dsh/test-utils';

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

async function sessionDir() {
  const dir = await mkdtemp(join(tmpdir(), 'dsh-native-'));
  const file = join(dir, 'p1.jsonl');
  await writeFile(file, `${LINES.map((line) => JSON.stringify(line)).join('\n')}\n`);
  return { dir, file };
}

it('dsh fork FILE --at <unknown> is INVALID_CUT naming the entries, and writes nothing', async () => {
  const { dir, file } = await sessionDir();
  const result = await runDsh(['fork', file, '--at', 'nope']);
  expect(result.code).toBe(1);
  expect(result.stderr).toContain('INVALID_CUT');
  expect(result.stderr).toContain('a1');
  expect(await readdir(dir)).toEqual(['p1.jsonl']);
});

it('dsh fork FILE --at REF --json writes the child beside FILE; dsh repair closes the open call, then finds nothing to do', async () => {
  const { dir, file } = await sessionDir();
  const before = await readFile(file, 'utf8');
  const forked = await runDsh(['fork', file, '--at', 'a1', '--json']);
  expect(forked.code, forked.stderr).toBe(0);
  const json = JSON.parse(forked.stdout) as { session_id: string; file: string; parent_session: string; cut: number; resume: string[] };
  expect(json).toMatchObject({
    file: join(dir, `${json.session_id}.jsonl`),
    parent_session: 'p1',
    resume: ['claude', '--resume', json.session_id],
  });
  expect(await readFile(file, 'utf8')).toBe(before);
  // The open call c1 is closed in the child: the closers load for such a cut.
  const closer = JSON.parse((await readFile(json.file, 'utf8')).trimEnd().split('\n').at(-1) ?? '') as Record<string, unknown>;
  expect(closer).toMatchObject({ type: 'user', parentUuid: 'a1', sessionId: json.session_id });
  expect(closer.message).toMatchObject({ content: [{ type: 'tool_result', tool_use_id: 'c1', is_error: true }] });

  const repaired = await runDsh(['repair', file]);
  expect(repaired.code, repaired.stderr).toBe(0);
  expect(await readFile(`${file}.bak`, 'utf8')).toBe(before);
  expect((await readFile(file, 'utf8')).startsWith(before)).toBe(true);
  const again = await runDsh(['repair', file]);
  expect(again.code).toBe(0);
  expect(again.stderr).toContain('nothing to repair');
});

it('dsh fork FILE on text of no known format is UNKNOWN_FORMAT', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'dsh-native-'));
  await writeFile(join(dir, 'x.jsonl'), '{"hello":1}\n');
  const result = await runDsh(['fork', join(dir, 'x.jsonl'), '--at', '0']);
  expect(result.code).toBe(1);
  expect(result.stderr).toContain('UNKNOWN_FORMAT');
});

it('dsh fork FILE --session-id UUID whose child file exists is TARGET_EXISTS, and the existing file and FILE stay as they were', async () => {
  const { dir, file } = await sessionDir();
  const child = '0a1b2c3d-0000-4000-8000-00000000c0de';
  await writeFile(join(dir, `${child}.jsonl`), 'mine\n');
  const result = await runDsh(['fork', file, '--at', 'a1', '--session-id', child]);
  expect(result.code).toBe(1);
  expect(result.stderr).toContain(
    `dsh: TARGET_EXISTS: ${join(dir, `${child}.jsonl`)} already exists; dsh never overwrites a session file. Nothing was written.`,
  );
  expect((await readdir(dir)).sort()).toEqual([`${child}.jsonl`, 'p1.jsonl']);
  expect(await readFile(join(dir, `${child}.jsonl`), 'utf8')).toBe('mine\n');

  const bad = await runDsh(['fork', file, '--at', 'a1', '--session-id', 'not-a-uuid']);
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain("--session-id expects a lowercase UUID such as 0a1b2c3d-…, received 'not-a-uuid'.");
  const fresh = await runDsh(['fork', file, '--at', 'a1', '--session-id', '0a1b2c3d-0000-4000-8000-00000000beef', '--json']);
  expect(fresh.code, fresh.stderr).toBe(0);
  expect(JSON.parse(fresh.stdout)).toMatchObject({
    session_id: '0a1b2c3d-0000-4000-8000-00000000beef',
    file: join(dir, '0a1b2c3d-0000-4000-8000-00000000beef.jsonl'),
  });
});

it('a line that is not JSON in the middle is skipped with a warning naming it by dsh fork FILE, dsh repair and dsh import; --strict refuses it MALFORMED_LINE', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'dsh-native-'));
  const file = join(dir, 'p1.jsonl');
  const bad = '{"type":"assistant","uuid":"half';
  const text = `${JSON.stringify(LINES[0])}\n${bad}\n${JSON.stringify(LINES[1])}\n`;
  await writeFile(file, text);
  const warning = `line 2: not a JSON object`;

  const strict = await runDsh(['fork', file, '--at', 'a1', '--strict']);
  expect([strict.code, strict.stderr]).toEqual([1, expect.stringContaining('MALFORMED_LINE')]);
  const forked = await runDsh(['fork', file, '--at', 'a1', '--json']);
  expect(forked.code, forked.stderr).toBe(0);
  expect(forked.stderr).toContain(warning);
  const child = await readFile((JSON.parse(forked.stdout) as { file: string }).file, 'utf8');
  expect(child).not.toContain('half');
  expect(child.trimEnd().split('\n')).toHaveLength(3);

  const data = await mkdtemp(join(tmpdir(), 'dsh-native-data-'));
  const strictImport = await runDsh(['import', file, '--strict', '--data', data]);
  expect([strictImport.code, strictImport.stderr]).toEqual([1, expect.stringContaining('MALFORMED_LINE')]);
  const imported = await runDsh(['import', file, '--data', data]);
  expect(imported.code, imported.stderr).toBe(0);
  expect(imported.stderr).toContain(warning);

  const strictRepair = await runDsh(['repair', file, '--strict']);
  expect([strictRepair.code, strictRepair.stderr]).toEqual([1, expect.stringContaining('MALFORMED_LINE')]);
  const repaired = await runDsh(['repair', file]);
  expect(repaired.code, repaired.stderr).toBe(0);
  expect(repaired.stderr).toContain(warning);
  expect((await readFile(file, 'utf8')).startsWith(text)).toBe(true);
  expect(await readFile(`${file}.bak`, 'utf8')).toBe(text);
});

it('dsh fork FILE of a Claude Code file of tiny lines past its memory bound is FILE_TOO_LARGE naming what it would need, and writes nothing', async () => {
  const { dir } = await sessionDir();
  const file = join(dir, 'p1.jsonl');
  // 20 MB of entries each followed by nine 20-byte lines: 4× the file is 80 MB; the fork would need far more.
  const entries: string[] = [];
  for (let i = 0, bytes = 0; bytes < 20_000_000; i++) {
    const value = {
      type: 'user',
      uuid: `u${String(i)}`,
      parentUuid: i === 0 ? null : `u${String(i - 1)}`,
      sessionId: 'p1',
      message: { role: 'user', content: 'x' },
    };
    const text = `${JSON.stringify(value)}\n${'{"type":"progress"}\n'.repeat(9)}`;
    entries.push(text);
    bytes += text.length;
  }
  await writeFile(file, entries.join(''));
  const result = await runDsh(['fork', file, '--at', `u${String(entries.length - 1)}`]);
  expect(result.code).toBe(1);
  expect(result.stderr).toMatch(
    /FILE_TOO_LARGE: .*p1\.jsonl: a native fork of this 19\.\d MiB file of \d+ lines would need about \d+\.\d MiB of memory .*expected at most 76\.\d MiB \(4× the file's size, at least 64 MiB\)/,
  );
  expect(await readdir(dir)).toEqual(['p1.jsonl']);
});

it('dsh fork FILE of a pi or Codex file of short lines past its memory bound is FILE_TOO_LARGE naming what it would need, and writes nothing', async () => {
  for (const tool of ['pi', 'codex'] as const) {
    const { dir } = await sessionDir();
    const file = join(dir, `${tool}.jsonl`);
    // About 20 MB of 230–380-byte lines: 4× the file is 80 MB; the text path parses and holds every line.
    let text = '';
    for (let turns = 256; text.length < 20_000_000; turns *= 2)
      text = tool === 'pi' ? piTranscript({ turns }).text : codexTranscript({ turns, ordinals: true }).text;
    text = text.slice(0, text.lastIndexOf('\n', 20_000_000) + 1);
    await writeFile(file, text);
    const before = (await readdir(dir)).sort();
    const last = JSON.parse(text.slice(text.lastIndexOf('\n', text.length - 2) + 1)) as { id?: string; ordinal?: number };
    const result = await runDsh(['fork', file, '--at', String(tool === 'pi' ? last.id : last.ordinal)]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      new RegExp(
        `FILE_TOO_LARGE: .*${tool}\\.jsonl: a native fork of this 19\\.\\d MiB ${tool} file of \\d+ lines would need about \\d+\\.\\d MiB of memory .*expected at most 76\\.\\d MiB \\(4× the file's size, at least 64 MiB\\)`,
      ),
    );
    expect((await readdir(dir)).sort()).toEqual(before);
    // The hint names the way past the bound; with more memory allowed, the same fork is written.
    expect(result.stderr).toContain('--max-memory N');
    const allowed = await runDsh(['fork', file, '--at', String(tool === 'pi' ? last.id : last.ordinal), '--max-memory', String(1024 ** 3)]);
    expect(allowed.stderr).not.toContain('FILE_TOO_LARGE');
    expect(allowed.code).toBe(0);
    expect((await readdir(dir)).length).toBe(before.length + 1);
  }
});

it('dsh fork --max-memory takes a positive number of bytes, and applies to a session FILE only', async () => {
  const { dir } = await sessionDir();
  const file = join(dir, 'pi.jsonl');
  await writeFile(file, piTranscript({ turns: 2 }).text);
  const bad = await runDsh(['fork', file, '--at', 'seq:1', '--max-memory', '64M']);
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain("--max-memory expects a positive number of bytes, received '64M'");
  const data = await mkdtemp(join(tmpdir(), 'dsh-native-data-'));
  const stored = await runDsh(['fork', 'no-such-session', '--max-memory', '100', '--data', data]);
  expect(stored.code).toBe(2);
  expect(stored.stderr).toContain('--max-memory applies to a session FILE');
  expect((await readdir(dir)).sort()).toEqual(['p1.jsonl', 'pi.jsonl']);
});
