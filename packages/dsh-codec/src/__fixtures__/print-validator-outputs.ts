/** Prints the digests of `validator-corpus.ts` as JSON, for `validator-outputs.json` (a deliberate rule change only). */
import { CORPUS_FIXTURES, corpusDigests } from './validator-corpus.js';

const digests = Object.assign({}, ...CORPUS_FIXTURES.map(({ name, version }) => corpusDigests(name, version))) as Record<string, string>;
process.stdout.write(`${JSON.stringify(digests, null, 2)}\n`);
