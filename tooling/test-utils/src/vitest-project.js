/**
 * Shared vitest settings for every workspace project: resolve workspace packages to their
 * `src/` through the `@dsh/source` export condition, so tests never need a build.
 * Plain JS because vitest loads configs with Node, which cannot import `.ts` from a linked package.
 */
import { basename } from 'node:path';
import { defaultClientConditions, defaultServerConditions } from 'vite';
import { defineProject } from 'vitest/config';

/**
 * @param {string} dir the project's folder (`import.meta.dirname`)
 * @param {import('vitest/config').UserWorkspaceConfig['test']} [overrides]
 */
export function defineDshProject(dir, overrides = {}) {
  return defineProject({
    resolve: { conditions: ['@dsh/source', ...defaultClientConditions] },
    ssr: { resolve: { conditions: ['@dsh/source', ...defaultServerConditions] } },
    test: {
      name: basename(dir),
      root: dir,
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      // Timeouts detect hangs; they never judge speed. Far above any test's normal running time, so a
      // loaded 2-core machine (DSH_CHECK_LOAD) gives the same verdicts; speed is measured in `pnpm bench`.
      testTimeout: 120_000,
      hookTimeout: 120_000,
      ...overrides,
    },
  });
}
