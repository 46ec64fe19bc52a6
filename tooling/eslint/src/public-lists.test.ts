/**
 * Every published package's main entry is a list a user can read: each name `packages/<name>/src/index.ts`
 * exports is a row of its README's "The public list" table (with who uses it), and the table names
 * nothing the entry does not export. An export added without a row, or a row left after its export
 * went, fails here; so does an `export *` (the entry is an explicit list).
 *
 * @module
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const repo = join(import.meta.dirname, '..', '..', '..');
const PUBLISHED = readdirSync(join(repo, 'packages')).filter(
  (name) => (JSON.parse(readFileSync(join(repo, 'packages', name, 'package.json'), 'utf8')) as { private?: boolean }).private !== true,
);

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** The names an entry file exports, from its explicit lists (`export { a, type B } from …`) and declarations. */
function entryExports(source: string): { names: string[]; unreadable: string[] } {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/.*$/gm, '$1');
  const names: string[] = [];
  const unreadable: string[] = [];
  for (const match of code.matchAll(/^export\s+(?:type\s+)?\{([^}]*)\}/gm)) {
    for (const part of (match[1] as string).split(',')) {
      const name = part
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)
        .pop()
        ?.trim();
      if (name !== undefined && name !== '') names.push(name);
    }
  }
  for (const match of code.matchAll(
    /^export\s+(?:declare\s+)?(?:async\s+)?(?:function\*?|const|let|class|enum|type|interface)\s+([\w$]+)/gm,
  ))
    names.push(match[1] as string);
  // Any other form (`export *`, `export default`, `export =`) is not an explicit, readable list.
  for (const match of code.matchAll(
    /^export\s+(?!(?:type\s+)?\{|(?:declare\s+)?(?:async\s+)?(?:function|const|let|class|enum|type|interface)\b).*$/gm,
  ))
    unreadable.push(match[0]);
  return { names, unreadable };
}

/** The names in the first cell of each row of the README section headed `## The public list`, or undefined when it has none. */
function publicListNames(readme: string): string[] | undefined {
  const start = readme.indexOf('\n## The public list');
  if (start < 0) return undefined;
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end < 0 ? undefined : end);
  const names: string[] = [];
  for (const line of section.split('\n')) {
    if (!line.startsWith('|') || /^\|[\s|:-]+\|$/.test(line)) continue;
    const cell = line.split('|')[1] ?? '';
    for (const match of cell.matchAll(/`([^`]+)`/g)) if (IDENTIFIER.test(match[1] as string)) names.push(match[1] as string);
  }
  return names;
}

describe("each published package's public list", () => {
  it('covers every package under packages/', () => {
    expect(PUBLISHED.length).toBeGreaterThanOrEqual(7);
  });

  for (const name of PUBLISHED) {
    it(`${name}: the README's public list names exactly what src/index.ts exports`, () => {
      const { names, unreadable } = entryExports(readFileSync(join(repo, 'packages', name, 'src', 'index.ts'), 'utf8'));
      expect(unreadable, 'exports that are not an explicit list').toEqual([]);
      const listed = publicListNames(readFileSync(join(repo, 'packages', name, 'README.md'), 'utf8'));
      expect(listed, `packages/${name}/README.md has a "## The public list" section`).toBeDefined();
      const exported = new Set(names);
      const rows = new Set(listed);
      expect(
        [...exported].filter((exportName) => !rows.has(exportName)).sort(),
        'exported, but no row of the README public list names it',
      ).toEqual([]);
      expect(
        [...rows].filter((row) => !exported.has(row)).sort(),
        'named in the README public list, but not exported by src/index.ts',
      ).toEqual([]);
    });
  }
});

describe('reading an entry and a public list', () => {
  it('takes names from explicit lists, renames and declarations, and reports `export *`', () => {
    const entry = [
      '/** doc: export { notThis } */',
      "export { a, type B, c as d } from './a.js';",
      "export type {\n  E,\n  F, // why\n} from './e.js';",
      'export function g() {}',
      "export * from './all.js';",
    ].join('\n');
    expect(entryExports(entry)).toEqual({ names: ['a', 'B', 'd', 'E', 'F', 'g'], unreadable: ["export * from './all.js';"] });
  });

  it('reads the first cell of each row of its section only', () => {
    const readme = [
      '## API',
      '| `notListed` | x |',
      '## The public list',
      '| exports | used by |',
      '|---|---|',
      '| `a`, `B` (`not an identifier`) | the CLI (`alsoNot`) |',
      '| re-exported: `c` | x |',
      '## Errors',
      '| `CODE` | 400 |',
    ].join('\n');
    expect(publicListNames(readme)).toEqual(['a', 'B', 'c']);
    expect(publicListNames('## API\n')).toBeUndefined();
  });
});
