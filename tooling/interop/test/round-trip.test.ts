/**
 * SPEC §18 export: import ∘ export keeps the model-visible history, on the real session files in
 * ../shared/data/transcripts (read where they lie, never copied into the repository), for every
 * target format.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { printSkip } from '@dsh/test-utils';
import { describe, expect, it } from 'vitest';
import { roundTrip } from '../src/index.js';

const DIR = [
  process.env.DSH_TRANSCRIPTS,
  join(import.meta.dirname, '../../../../shared/data/transcripts'),
  '/work/shared/data/transcripts',
].find((dir): dir is string => dir !== undefined && statSync(dir, { throwIfNoEntry: false })?.isDirectory() === true);
const files =
  DIR === undefined
    ? []
    : ['claude-code', 'codex', 'pi'].flatMap((format) =>
        readdirSync(join(DIR, format))
          .filter((name) => name.endsWith('.jsonl'))
          .map((name) => join(DIR, format, name)),
      );
if (files.length === 0)
  printSkip('interop round trip on shared transcripts', 'no ../shared/data/transcripts here (DSH_TRANSCRIPTS names another folder)');

describe.skipIf(files.length === 0)('import ∘ export keeps the model-visible history (shared transcripts)', () => {
  for (const file of files) {
    for (const target of ['claude-code', 'codex', 'pi'] as const) {
      it(`${file.split('/').slice(-2).join('/')} → ${target} → back`, () => {
        const { before, after } = roundTrip(readFileSync(file, 'utf8'), target);
        expect(before.length).toBeGreaterThan(0);
        expect(after).toEqual(before);
      });
    }
  }
});
