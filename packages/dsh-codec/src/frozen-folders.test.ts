import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const src = import.meta.dirname;

function sources(folder: string): string[] {
  return readdirSync(join(src, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .map((file) => join(src, folder, file));
}

function specifiers(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((match) => match[1] as string);
}

describe('frozen version folders', () => {
  for (const version of [0, 1, 2, 3]) {
    it(`src/v${String(version)} imports only zod, src/shared and the same or older version folders`, () => {
      const files = sources(`v${String(version)}`);
      expect(files.length).toBeGreaterThan(0);
      for (const file of files) {
        for (const specifier of specifiers(file)) {
          if (!specifier.startsWith('.')) {
            expect(specifier, relative(src, file)).toBe('zod');
            continue;
          }
          const target = relative(src, resolve(dirname(file), specifier))
            .split('\\')
            .join('/');
          if (target.startsWith('shared/')) continue;
          const folder = /^v(\d)\//.exec(target);
          expect(folder, `${relative(src, file)} imports ${specifier}`).not.toBeNull();
          expect(Number(folder?.[1]), `${relative(src, file)} imports ${specifier}`).toBeLessThanOrEqual(version);
        }
      }
    });
  }

  for (const version of [4, 5, 6, 7]) {
    it(`src/v${String(version)} imports zod, src/shared, older or same version folders, and the current types (types only)`, () => {
      for (const file of sources(`v${String(version)}`)) {
        const text = readFileSync(file, 'utf8');
        for (const specifier of specifiers(file)) {
          if (!specifier.startsWith('.')) {
            expect(specifier, relative(src, file)).toBe('zod');
            continue;
          }
          const target = relative(src, resolve(dirname(file), specifier))
            .split('\\')
            .join('/');
          if (target.startsWith('shared/')) continue;
          if (target === 'types.js') {
            expect(text, `${relative(src, file)} imports ../types.js for types only`).toMatch(
              /import type \{[^}]*\} from '\.\.\/types\.js'/,
            );
            continue;
          }
          const folder = /^v(\d)\//.exec(target);
          expect(folder, `${relative(src, file)} imports ${specifier}`).not.toBeNull();
          expect(Number(folder?.[1]), `${relative(src, file)} imports ${specifier}`).toBeLessThanOrEqual(version);
        }
      }
    });
  }

  // The version-free machinery every folder configures: it may never reach into a version folder,
  // so no version's rules leak into another through it (validator-outputs.test.ts pins its answers).
  it('src/shared imports only zod, src/shared and the current types (types only), never a version folder', () => {
    const files = sources('shared');
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const specifier of specifiers(file)) {
        if (!specifier.startsWith('.')) {
          expect(specifier, relative(src, file)).toBe('zod');
          continue;
        }
        const target = relative(src, resolve(dirname(file), specifier))
          .split('\\')
          .join('/');
        if (target === 'types.js') {
          expect(text, `${relative(src, file)} imports ../types.js for types only`).toMatch(/import type \{[^}]*\} from '\.\.\/types\.js'/);
          continue;
        }
        expect(target, `${relative(src, file)} imports ${specifier}`).toMatch(/^shared\//);
      }
    }
  });
});
