import { readdir, readFile } from 'node:fs/promises';
import { describe, expect, test } from 'vitest';

describe('the dsh-host/commands entry', () => {
  test('imports nothing outside its own folder (no node built-ins), so the demo page can bundle it', async () => {
    const here = new URL('.', import.meta.url);
    const sources = (await readdir(here)).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'));
    expect(sources).toContain('index.ts');
    for (const name of sources) {
      const text = await readFile(new URL(name, here), 'utf8');
      const specifiers = [...text.matchAll(/\bfrom\s+'([^']+)'/g)].map((match) => match[1]);
      expect(
        specifiers.filter((specifier) => !specifier?.startsWith('./')),
        name,
      ).toEqual([]);
    }
  });
});
