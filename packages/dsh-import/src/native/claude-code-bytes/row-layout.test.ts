/**
 * The row layout is written once (`scripts/row-layout.mjs`) and generated for both sides that read
 * it: this test fails when the scanner's view (`assembly/row-layout.ts`) or the table's
 * (`row-layout.ts`) is not what the table gives — run `pnpm --filter dsh-import run build:wasm`.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath, URL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { rowLayoutViews } from '../../../scripts/build-row-layout.mjs';
import { BLOCK, LINE_END, ROW } from './claude-code-line-table.js';

const PACKAGE = fileURLToPath(new URL('../../../', import.meta.url));

describe('the row layout', () => {
  it.each(rowLayoutViews().map(([path, text]) => [relative(PACKAGE, path), path, text]))(
    'is generated from scripts/row-layout.mjs into %s, unchanged since',
    (_name, path, text) => {
      expect(readFileSync(path, 'utf8')).toBe(text);
    },
  );

  it('is what the line table reads: a row ends with its line place, a block has seven slots', () => {
    expect([LINE_END, ROW, BLOCK]).toStrictEqual([19, 20, 7]);
  });
});
