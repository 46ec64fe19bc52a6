import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTempDir } from '@dsh/test-utils';
import { describe, expect, it } from 'vitest';
import { copyForkJsonl } from './copy-fork-jsonl.js';

const lines = ['a', 'b', 'c'].map((uuid, index) => JSON.stringify({ uuid, sessionId: 'parent', n: index }));

describe('copyForkJsonl', () => {
  it('copies the lines through the cut with the child session id and returns the bytes written', async () => {
    await using dir = await makeTempDir();
    const source = join(dir.path, 'parent.jsonl');
    await writeFile(source, `${lines.join('\n')}\n`);
    const target = join(dir.path, 'child.jsonl');
    const bytes = await copyForkJsonl(source, target, 'b', 'child');
    const text = await readFile(target, 'utf8');
    expect(Buffer.byteLength(text)).toBe(bytes);
    expect(
      text
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as unknown),
    ).toEqual([
      { uuid: 'a', sessionId: 'child', n: 0 },
      { uuid: 'b', sessionId: 'child', n: 1 },
    ]);
  });

  it('refuses a cut that is not in the parent and never overwrites a child', async () => {
    await using dir = await makeTempDir();
    const source = join(dir.path, 'parent.jsonl');
    await writeFile(source, `${lines.join('\n')}\n`);
    await expect(copyForkJsonl(source, join(dir.path, 'x.jsonl'), 'zzz', 'child')).rejects.toThrow(/no line with uuid zzz/);
    await expect(copyForkJsonl(source, source, 'a', 'child')).rejects.toThrow(/EEXIST/);
  });
});
