/** SPEC §2 — packages and boundaries, checked through the published package names. */
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as codec from 'dsh-codec';
import * as session from 'dsh-session';
import * as fork from 'dsh-session/fork';
import * as agent from 'dsh-agent';
import * as host from 'dsh-host';

const require = createRequire(import.meta.url);
const packageDir = (name: string) => dirname(require.resolve(`${name}/package.json`));
const manifest = async (name: string) =>
  JSON.parse(await readFile(join(packageDir(name), 'package.json'), 'utf8')) as {
    name: string;
    dependencies?: Record<string, string>;
    exports: Record<string, unknown>;
  };

const ORDER = ['dsh-codec', 'dsh-session', 'dsh-agent', 'dsh-host'];
/**
 * Packages beside the chain, with the chain packages they stand on (SPEC §14, §16): depending on one
 * points downward whenever everything it stands on is below the depender.
 */
const BESIDE: Record<string, readonly string[]> = { 'dsh-import': ['dsh-codec'], 'dsh-postgres': ['dsh-codec', 'dsh-session'] };

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((file) => !file.includes('__fixtures__'));
}

describe('§2 packages and boundaries', () => {
  it('§2 the published package names resolve: dsh-codec, dsh-session, dsh-session/fork, dsh-agent, dsh-host', () => {
    for (const entry of [codec, session, fork, agent, host]) expect(Object.keys(entry).length).toBeGreaterThan(0);
  });

  it('§2 dsh-session/fork has exactly one export, buildForkSeed', () => {
    expect(Object.keys(fork)).toEqual(['buildForkSeed']);
    expect(typeof fork.buildForkSeed).toBe('function');
  });

  it('§2 the dsh-session main entry does not export buildForkSeed', () => {
    expect(Object.keys(session)).not.toContain('buildForkSeed');
  });

  it('§2 dsh-session declares the ./fork subpath export', async () => {
    expect(Object.keys((await manifest('dsh-session')).exports)).toContain('./fork');
  });

  it("§2 dsh-session's main entry never imports the ./fork source file", async () => {
    const src = join(packageDir('dsh-session'), 'src');
    const offenders: string[] = [];
    for (const file of await sourceFiles(src)) {
      if (file === join(src, 'fork.ts')) continue;
      const text = await readFile(file, 'utf8');
      if (/from\s+['"](\.\/fork\.js|dsh-session\/fork)['"]/.test(text) || /import\(\s*['"]\.\/fork\.js['"]\s*\)/.test(text))
        offenders.push(file);
    }
    expect(offenders).toEqual([]);
  });

  it('§2 the dsh-session/fork source imports only event types and the internal closer', async () => {
    const exportsField = (await manifest('dsh-session')).exports['./fork'] as Record<string, string>;
    const forkSource = Object.values(exportsField).find((target) => target.endsWith('.ts'));
    expect(forkSource).toBeDefined();
    let text = await readFile(join(packageDir('dsh-session'), forkSource!), 'utf8');
    // The entry may re-export its one function from a module of its own: that module's imports count.
    const reexport = /^export\s*\{\s*buildForkSeed\s*\}\s*from\s*['"]\.\/([a-z-]+)\.js['"];?\s*$/m.exec(text);
    if (reexport !== null) text = await readFile(join(packageDir('dsh-session'), 'src', `${reexport[1]!}.ts`), 'utf8');
    const imports = [...text.matchAll(/^import\s+(type\s+)?[^;]*?from\s+['"]([^'"]+)['"]/gms)].map((match) => ({
      typeOnly: match[1] !== undefined,
      from: match[2],
    }));
    expect(imports.length).toBeGreaterThan(0);
    for (const entry of imports) {
      if (entry.from === 'dsh-codec') expect(entry.typeOnly).toBe(true);
      else expect(entry.from).toMatch(/^\.\/close-open-tail\.js$/);
    }
  });

  it('§2 workspace dependencies only flow downward: codec ← session ← agent ← host', async () => {
    for (const [index, name] of ORDER.entries()) {
      const deps = Object.keys((await manifest(name)).dependencies ?? {}).filter((dep) => dep.startsWith('dsh-'));
      const below = ORDER.slice(0, index);
      const allowed = [...below, ...Object.keys(BESIDE).filter((side) => BESIDE[side]!.every((base) => below.includes(base)))];
      for (const dep of deps) expect(allowed, `${name} depends on ${dep}`).toContain(dep);
    }
  });

  it('§2 no package source imports a package above it or reaches into another package src/', async () => {
    const problems: string[] = [];
    for (const [index, name] of ORDER.entries()) {
      const above = ORDER.slice(index + 1);
      for (const file of await sourceFiles(join(packageDir(name), 'src'))) {
        const text = await readFile(file, 'utf8');
        for (const match of text.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)) {
          const specifier = match[1]!;
          if (above.some((pkg) => specifier === pkg || specifier.startsWith(`${pkg}/`))) problems.push(`${file}: ${specifier}`);
          // A relative import stays inside the package's own src/ (folders nest: count the resolved path, not the dots).
          const leaves = specifier.startsWith('.') && !resolve(dirname(file), specifier).startsWith(`${join(packageDir(name), 'src')}/`);
          if (/^dsh-[a-z]+\/src\//.test(specifier) || leaves) problems.push(`${file}: ${specifier}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});
