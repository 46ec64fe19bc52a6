/**
 * @module @dsh/eslint-config
 * The repository's flat ESLint config: typescript-eslint `strictTypeChecked` plus the
 * `dsh/layers` rule that enforces SPEC §2's import arrows.
 */
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { layerRule } from './layer-rule.js';

/** @param {{ root: string }} options */
export function dshConfig({ root }) {
  return tseslint.config(
    {
      ignores: [
        '**/vitest.config.ts',
        '**/dist/**',
        '**/node_modules/**',
        '**/.turbo/**',
        '**/coverage/**',
        '**/test-artifacts/**',
        '**/.tools/**',
        // AssemblyScript (dsh-import's WebAssembly scanner): its own compiler, asc, checks it.
        '**/assembly/**',
      ],
    },
    js.configs.recommended,
    ...tseslint.configs.strictTypeChecked,
    {
      languageOptions: {
        parserOptions: { projectService: true, tsconfigRootDir: root },
      },
      plugins: { dsh: { rules: { layers: layerRule } } },
      rules: {
        'dsh/layers': ['error', { root }],
        '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
        '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      },
    },
    {
      files: ['**/*.js', '**/*.mjs'],
      ...tseslint.configs.disableTypeChecked,
    },
    {
      // Fixtures are test code: linted like it, with the same relaxations.
      files: ['**/*.test.ts', '**/test/**/*.ts', '**/__fixtures__/**/*.ts'],
      rules: {
        '@typescript-eslint/no-non-null-assertion': 'off',
        '@typescript-eslint/no-unsafe-assignment': 'off',
        '@typescript-eslint/no-unsafe-member-access': 'off',
      },
    },
  );
}
