/**
 * The layer table is the truth in three places at once: `layers.js` (what lint enforces), each
 * unit's `package.json` (what it installs) and AGENTS.md's package table (what a newcomer reads).
 * An arrow in one of them and not the others fails here.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LAYERS, TEST_IMPORTS, WORKSPACE_PACKAGES } from './layers.js';

const repo = join(import.meta.dirname, '..', '..', '..');

function workspaceNames(names: Iterable<string>): string[] {
  return [...names].filter((name) => WORKSPACE_PACKAGES.includes(name)).sort();
}

function manifest(unit: string): { dependencies?: Record<string, string>; devDependencies?: Record<string, string> } {
  return JSON.parse(readFileSync(join(repo, unit, 'package.json'), 'utf8')) as never;
}

/** AGENTS.md's package table: folder → the workspace packages its "may import" cell names. */
function agentsMapArrows(): Map<string, string[]> {
  const text = readFileSync(join(repo, 'AGENTS.md'), 'utf8');
  const section = text.slice(text.indexOf('## Packages'), text.indexOf('\n## ', text.indexOf('## Packages') + 1));
  const rows = new Map<string, string[]>();
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    const folder = /^`([^`]+)`$/.exec(cells[1] ?? '')?.[1];
    if (folder === undefined || !(folder in LAYERS)) continue;
    const mayImport = (cells.at(-2) ?? '').replace(/\([^)]*\)/g, '');
    rows.set(folder, workspaceNames(mayImport.split(/[,\s]+/).map((name) => name.replaceAll('`', ''))));
  }
  return rows;
}

describe('the layer table', () => {
  for (const [unit, allowed] of Object.entries(LAYERS)) {
    it(`${unit}: package.json depends on exactly the packages lint lets it import`, () => {
      const { dependencies = {}, devDependencies = {} } = manifest(unit);
      expect(workspaceNames(Object.keys(dependencies))).toEqual([...allowed].sort());
      for (const name of workspaceNames(Object.keys(devDependencies))) {
        expect(TEST_IMPORTS[unit] ?? [], `${unit} devDependency ${name}`).toContain(name);
      }
    });
  }

  it("AGENTS.md's package table names the same arrows as lint", () => {
    const rows = agentsMapArrows();
    expect([...rows.keys()].sort()).toEqual(Object.keys(LAYERS).sort());
    for (const [unit, allowed] of Object.entries(LAYERS)) {
      expect(rows.get(unit), unit).toEqual([...allowed].sort());
    }
  });
});
