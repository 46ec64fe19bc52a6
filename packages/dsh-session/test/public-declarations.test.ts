/**
 * `@internal` means something: dsh-session's declarations are built as for publishing
 * (`tsconfig.build.json`, `stripInternal`) into a private folder, and the declaration files the
 * public entries (`dsh-session`, `dsh-session/fork`) reach must name nothing the sources mark
 * `@internal` and nothing only the internal entry (`dsh-session/internal`, for dsh-postgres) exports,
 * must type-check as a consumer sees them (`skipLibCheck: false`: a public declaration that refers to a
 * stripped one fails), and the internal entry's declarations must still hold what dsh-postgres imports.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, type TempDir } from '@dsh/test-utils';

const run = promisify(execFile);
const PACKAGE = fileURLToPath(new URL('..', import.meta.url));
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');

/** Names of the top-level declarations in `sources` whose JSDoc carries `@internal`. */
function internalNames(sources: readonly string[]): Set<string> {
  const names = new Set<string>();
  const tagged =
    /\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*export\s+(?:declare\s+)?(?:async\s+)?(?:function\*?|const|let|type|interface|class|enum)\s+([A-Za-z_$][\w$]*)/g;
  for (const text of sources)
    for (const match of text.matchAll(tagged)) if (/@internal\b/.test(match[1] as string)) names.add(match[2] as string);
  return names;
}

/** The names an entry's declaration file exports (`export { a, type b as c } from …`, `export declare function d`). */
function exportedNames(declarations: string): Set<string> {
  const names = new Set<string>();
  for (const match of declarations.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}/g)) {
    for (const part of (match[1] as string).split(',')) {
      const name = part
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)
        .pop()
        ?.trim();
      if (name) names.add(name);
    }
  }
  for (const match of declarations.matchAll(
    /export\s+declare\s+(?:function|const|class|enum)\s+([\w$]+)|export\s+(?:type|interface)\s+([\w$]+)/g,
  ))
    names.add((match[1] ?? match[2]) as string);
  return names;
}

/** The declaration files `entry` reaches through relative imports and re-exports, itself included. */
function closureOf(dist: string, entry: string): Map<string, string> {
  const files = new Map<string, string>();
  const pending = [join(dist, entry)];
  while (pending.length > 0) {
    const file = pending.pop() as string;
    if (files.has(file)) continue;
    const text = readFileSync(file, 'utf8');
    files.set(file, text);
    for (const match of text.matchAll(/(?:from\s+|import\()\s*['"](\.{1,2}\/[^'"]+)\.js['"]/g))
      pending.push(join(dirname(file), `${match[1] as string}.d.ts`));
  }
  return files;
}

/** Each of `names` that a declaration file of `files` declares or exports, with that file (relative to `dist`). */
function leaks(dist: string, files: ReadonlyMap<string, string>, names: Iterable<string>): string[] {
  const found: string[] = [];
  for (const name of names)
    for (const [file, text] of files) if (exportedNames(text).has(name)) found.push(`${name} in ${relative(dist, file)}`);
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === '__fixtures__' ? [] : sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('the checks themselves', () => {
  it('find a tagged declaration, an exported name and a leaked name', () => {
    expect(internalNames(['/** Helper. @internal */\nexport function helper(): void {}\n/** Public. */\nexport type Open = 1;'])).toEqual(
      new Set(['helper']),
    );
    expect(exportedNames("export { a, type b as c } from './x.js';\nexport declare function d(): void;")).toEqual(new Set(['a', 'c', 'd']));
    const files = new Map([['/d/index.d.ts', 'export type helperType = 1;\nexport declare function open(h: helperType): void;']]);
    expect(leaks('/d', files, ['helperType', 'help', 'h'])).toEqual(['helperType in index.d.ts']);
  });
});

describe('the published declarations', () => {
  let out: TempDir | undefined;
  let dist = '';
  beforeAll(async () => {
    out = await makeTempDir('dsh-session-declarations-');
    dist = join(out.path, 'dist');
    await run(
      process.execPath,
      [TSC, '-p', join(PACKAGE, 'tsconfig.build.json'), '--outDir', dist, '--emitDeclarationOnly', '--declarationMap', 'false'],
      { cwd: PACKAGE },
    ).catch((error: unknown) => {
      throw new Error(`building dsh-session's declarations: ${String((error as { stdout?: string }).stdout)}`, { cause: error });
    });
  }, 300_000);
  afterAll(async () => {
    await out?.remove();
  });

  it('of the public entries name nothing marked @internal in the sources', () => {
    const marked = internalNames(sourceFiles(join(PACKAGE, 'src')).map((file) => readFileSync(file, 'utf8')));
    // The sources do mark declarations so (a check over an empty set could not fail).
    expect(marked.size).toBeGreaterThan(10);
    const files = new Map([...closureOf(dist, 'index.d.ts'), ...closureOf(dist, 'fork.d.ts')]);
    expect(leaks(dist, files, marked)).toEqual([]);
    expect([...files].filter(([, text]) => text.includes('@internal')).map(([file]) => relative(dist, file))).toEqual([]);
  });

  it('of the public entries name nothing only the internal entry exports', () => {
    const internal = readFileSync(join(dist, 'internal.d.ts'), 'utf8');
    const publicNames = new Set([
      ...exportedNames(readFileSync(join(dist, 'index.d.ts'), 'utf8')),
      ...exportedNames(readFileSync(join(dist, 'fork.d.ts'), 'utf8')),
    ]);
    const onlyInternal = [...exportedNames(internal)].filter((name) => !publicNames.has(name));
    expect(onlyInternal).toContain('currentProcess');
    // The storage seam: a third-party backend sees only the public interface, never dsh's fast forms.
    expect(
      [...exportedNames(readFileSync(join(dist, 'index.d.ts'), 'utf8'))]
        .filter((name) => /^(Session(Backend|Writer)|Stored|Inherited|Fast)/.test(name))
        .sort(),
    ).toEqual(['SessionBackend', 'SessionWriter', 'StoredLog', 'StoredSessionRef']);
    for (const name of [
      'FastBackend',
      'FastWriter',
      'StoredRead',
      'StoredLines',
      'InheritedRecords',
      'StoredSummary',
      'Provenance',
      'provenanceKind',
      'asSessionBackend',
    ])
      expect(onlyInternal).toContain(name);
    const files = new Map([...closureOf(dist, 'index.d.ts'), ...closureOf(dist, 'fork.d.ts')]);
    expect(leaks(dist, files, onlyInternal)).toEqual([]);
  });

  it('type-check as a consumer sees them, every entry with skipLibCheck false', async () => {
    const consumer = join(dist, '..', 'consumer');
    await mkdir(consumer);
    await writeFile(
      join(consumer, 'consumer.ts'),
      ['index', 'fork', 'internal'].map((entry) => `export type * as ${entry} from '${join(dist, `${entry}.js`)}';\n`).join(''),
    );
    const repo = join(PACKAGE, '../..');
    const compilerOptions = {
      strict: true,
      exactOptionalPropertyTypes: true,
      noEmit: true,
      skipLibCheck: false,
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      target: 'ES2022',
      lib: ['ES2023'],
      types: ['node'],
      typeRoots: [join(repo, 'node_modules/@types')],
      // dsh-codec from its sources: this checks dsh-session's declarations, not a built codec.
      paths: { 'dsh-codec': [join(repo, 'packages/dsh-codec/src/index.ts')] },
    };
    await writeFile(join(consumer, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['consumer.ts'] }));
    const result = await run(process.execPath, [TSC, '-p', join(consumer, 'tsconfig.json')], { cwd: consumer }).then(
      () => '',
      (error: unknown) => String((error as { stdout?: string }).stdout),
    );
    expect(result).toBe('');
  });

  it('of the internal entry still declare what dsh-postgres imports from it', () => {
    const files = closureOf(dist, 'internal.d.ts');
    const text = [...files.values()].join('\n');
    for (const declaration of [
      'declare function currentProcess',
      'declare function isProcessAlive',
      'type ProcessIdentity',
      'declare function asSessionBackend',
      'interface FastBackend',
      'interface FastWriter',
      'type StoredRead',
      'type InheritedRecords',
      'type StoredSummary',
      'interface StoredLines',
      'type Provenance',
      'declare function provenanceKind',
      'declare class JsonlTextLog',
      'declare class RecordsLog',
      'declare class ValidatedLinesLog',
    ]) {
      expect(text).toContain(declaration);
    }
  });
});
