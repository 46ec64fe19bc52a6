/**
 * SPEC §27, the bullets on the tools' own files: "`dsh repair` loses no line the tool writes" and
 * "A native fork is the same bytes on every path", through the real `dsh` bin (with and without
 * WebAssembly: `NODE_OPTIONS=--jitless`).
 */
import { mkdtemp, open, readdir, readFile, rm, stat, symlink, writeFile, chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { claudeCodeTranscript, codexTranscript, runDsh } from '@dsh/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dsh-s27-native-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('SPEC §27 dsh repair loses no line the tool writes', () => {
  it('appends in place (same inode, mode kept, a writer holding the descriptor keeps its lines), never over FILE.bak, through a symlink to its target, no temp file left', async () => {
    const { text } = codexTranscript({ turns: 2, endMidCall: true });
    const file = join(dir, 'rollout-2026-11-21T08-00-00-019e2000-1111-7222-8333-444455556666.jsonl');
    await writeFile(file, text);
    await chmod(file, 0o644);
    await writeFile(`${file}.bak`, 'an older backup\n');
    const link = join(dir, 'link.jsonl');
    await symlink(file, link);
    const before = await stat(file);
    const result = await runDsh(['repair', link]);
    expect(result.code, result.stderr).toBe(0);
    const after = await stat(file);
    expect({ ino: after.ino, mode: after.mode & 0o777 }).toStrictEqual({ ino: before.ino, mode: 0o644 });
    const repaired = await readFile(file, 'utf8');
    expect(repaired.startsWith(text)).toBe(true);
    expect(repaired.length).toBeGreaterThan(text.length);
    expect(await readFile(`${file}.bak`, 'utf8')).toBe('an older backup\n');
    expect(await readFile(`${file}.bak.1`, 'utf8')).toBe(text);
    expect((await readdir(dir)).filter((name) => name.endsWith('.tmp'))).toStrictEqual([]);
    // A line written after the repair through a descriptor opened before it is in FILE.
    const held = await open(file, 'a');
    await held.write('{"type":"event_msg","payload":{"type":"token_count","late":true}}\n');
    await held.close();
    expect(await readFile(file, 'utf8')).toContain('"late":true');
  });

  it('refuses FILE_IN_USE while another process has FILE open, and writes nothing', async () => {
    const { text } = codexTranscript({ turns: 2, endMidCall: true });
    const file = join(dir, 'rollout.jsonl');
    await writeFile(file, text);
    const held = await open(file, 'a');
    try {
      const result = await runDsh(['repair', file]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('FILE_IN_USE');
    } finally {
      await held.close();
    }
    expect(await readFile(file, 'utf8')).toBe(text);
    expect(await readdir(dir)).toStrictEqual(['rollout.jsonl']);
  });
});

describe('SPEC §27 A native fork is the same bytes on every path', () => {
  it('dsh fork FILE writes the same child with WebAssembly and without it (--jitless), a line written twice included', async () => {
    const lines = claudeCodeTranscript({ turns: 4 }).text.trimEnd().split('\n');
    // A line Claude Code wrote twice, then a cut where no call is open (no closer, no clock in the child).
    const twice = lines.findIndex((line) => line.includes('"type":"assistant"'));
    lines.splice(twice + 1, 0, lines[twice] as string);
    const at = (JSON.parse(lines.findLast((line) => line.includes('"end_turn"')) as string) as { uuid: string }).uuid;
    const file = join(dir, 'aaaaaaaa-0000-4000-8000-000000000001.jsonl');
    await writeFile(file, `${lines.join('\n')}\n`);
    const children: Buffer[] = [];
    for (const [n, env] of [{}, { NODE_OPTIONS: '--jitless' }].entries()) {
      const id = `bbbbbbbb-0000-4000-8000-00000000000${String(n)}`;
      const result = await runDsh(['fork', file, '--at', at, '--session-id', id], { env });
      expect(result.code, result.stderr).toBe(0);
      const child = await readFile(join(dir, `${id}.jsonl`));
      expect(child.toString('utf8')).not.toContain(lines[0]?.match(/"sessionId":"[^"]+"/)?.[0] ?? '"sessionId":"?"');
      children.push(Buffer.from(child.toString('utf8').replaceAll(id, 'CHILD')));
    }
    expect(children[1]?.equals(children[0] as Buffer)).toBe(true);
  });

  it('a kept line that is not valid UTF-8 is refused MALFORMED_LINE on both paths, never re-encoded', async () => {
    const lines = claudeCodeTranscript({ turns: 2 }).text.trimEnd().split('\n');
    const at = (JSON.parse(lines.at(-1) as string) as { uuid: string }).uuid;
    const file = join(dir, 'aaaaaaaa-0000-4000-8000-000000000002.jsonl');
    await writeFile(
      file,
      Buffer.concat([
        Buffer.from(`${lines.slice(0, 3).join('\n')}\n${(lines[3] as string).replace(/\}$/, ',"x":"')}`),
        Buffer.from([0xff, 0xfe]),
        Buffer.from(`"}\n${lines.slice(4).join('\n')}\n`),
      ]),
    );
    for (const env of [{}, { NODE_OPTIONS: '--jitless' }]) {
      const result = await runDsh(['fork', file, '--at', at], { env });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('MALFORMED_LINE');
      expect(result.stderr).toContain('line 4');
    }
    expect(await readdir(dir)).toStrictEqual(['aaaaaaaa-0000-4000-8000-000000000002.jsonl']);
  });
});
