/**
 * File-level import cycles in the production code of `packages/` and `apps/` (relative imports,
 * type-only ones included: a type cycle still ties two modules' meanings together). The cycles that
 * exist today are listed below by their files; a new cycle fails, so the list only shrinks (the
 * architecture review counted 6 at e76bf7b; remove a row when its cycle is opened).
 *
 * @module
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const repo = join(import.meta.dirname, '..', '..', '..');

/** Known cycles, each as its sorted files (repo-relative); remove a row when its cycle is opened. */
const KNOWN_CYCLES: readonly string[][] = [
  ['packages/dsh-import/src/native/export-native-transcript.ts', 'packages/dsh-import/src/native/export-writers.ts'],
  ['packages/dsh-session/src/jsonl/jsonl-create-plan.ts', 'packages/dsh-session/src/jsonl/jsonl-state.ts'],
];

function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'dist' || name === '__fixtures__') continue;
    if (statSync(path).isDirectory()) files.push(...sourceFiles(path));
    else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith('.d.ts')) files.push(path);
  }
  return files;
}

function relativeImports(file: string, known: Set<string>): string[] {
  const text = readFileSync(file, 'utf8');
  const targets: string[] = [];
  for (const match of text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)) {
    const base = resolve(dirname(file), match[1]!.replace(/\.js$/, ''));
    const target = [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((candidate) => known.has(candidate));
    if (target !== undefined) targets.push(target);
  }
  return targets;
}

/** Strongly connected components of more than one file (Tarjan). */
function cycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    for (;;) {
      const member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
      if (member === node) break;
    }
    if (component.length > 1) found.push(component.map((file) => relative(repo, file)).sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

function unitFolders(): string[] {
  return ['packages', 'apps'].flatMap((top) =>
    readdirSync(join(repo, top))
      .map((name) => join(repo, top, name, 'src'))
      .filter((path) => statSync(path, { throwIfNoEntry: false })?.isDirectory() === true),
  );
}

describe('file-level import cycles', () => {
  it('production code has no import cycle beyond the known list', () => {
    const files = unitFolders().flatMap(sourceFiles);
    const known = new Set(files);
    const graph = new Map(files.map((file) => [file, relativeImports(file, known)]));
    const key = (files: string[]): string => files.join(' ↔ ');
    const allowed = new Set(KNOWN_CYCLES.map(key));
    expect(
      cycles(graph)
        .map(key)
        .filter((cycle) => !allowed.has(cycle)),
    ).toEqual([]);
  });
});
