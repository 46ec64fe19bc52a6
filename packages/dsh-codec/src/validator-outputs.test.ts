import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS_FIXTURES, corpusDigests } from './__fixtures__/validator-corpus.js';

const pinned = JSON.parse(readFileSync(join(import.meta.dirname, '__fixtures__', 'validator-outputs.json'), 'utf8')) as Record<
  string,
  string
>;

// Regenerate __fixtures__/validator-outputs.json (print-validator-outputs.ts) only for a deliberate
// rule change, with a decision record saying why; a refactor must leave every digest as it is.
describe('validator outputs over the broken-fixture corpus', () => {
  it.each(CORPUS_FIXTURES)(
    '$name mutated: every validator, the decoder and the event checker answer exactly as pinned',
    ({ name, version }) => {
      const expected = Object.fromEntries(Object.entries(pinned).filter(([key]) => key.startsWith(`${name} `)));
      expect(Object.keys(expected).length).toBe(10);
      expect(corpusDigests(name, version)).toEqual(expected);
    },
    // Generous: the verdict is the digests, never the run time (a few seconds each on an idle machine).
    600_000,
  );
});
