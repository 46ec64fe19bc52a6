/**
 * dsh-session's folders point one way where the architecture review asked (#39 step 3): the
 * backend-neutral read forms in `sources/` never import the JSONL backend's folder; JSONL's own read
 * forms (text, verified bytes, verified lines) live in `jsonl/` beside the backend that makes them;
 * nor do they import `store/`, which builds on them (the public `latestMetadata` of an observation
 * lives in `store/`, its source reader `latestMetadataOf` in `sources/`).
 *
 * @module
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const sources = join(import.meta.dirname, '..', '..', '..', 'packages', 'dsh-session', 'src', 'sources');

describe("dsh-session's folder arrows", () => {
  it.each(['jsonl', 'store'])('no production module of sources/ imports from %s/', (folder) => {
    const offenders = readdirSync(sources)
      .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
      .filter((name) => new RegExp(`from\\s+'\\.\\./${folder}/`).test(readFileSync(join(sources, name), 'utf8')));
    expect(offenders).toEqual([]);
  });
});
