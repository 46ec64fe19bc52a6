/**
 * A deterministic corpus of broken logs for pinning what the validators, the decoder and the event
 * checker say: every golden fixture with one value removed or replaced (by each of a few fixed
 * values) at every path of its header and of every event. `validator-outputs.test.ts` digests
 * every answer, so a refactor of shared machinery cannot change a frozen version's rules unseen.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CodecError, createEventChecker, decodeJsonl, validate, type FormatVersion } from 'dsh-codec';
import { REMOVE, edit, paths } from './mutated-payloads.js';

/** The golden fixtures the corpus mutates, with the version that wrote each. */
export const CORPUS_FIXTURES: readonly { name: string; version: FormatVersion }[] = [
  { name: 'v0-session', version: 0 },
  { name: 'v1-session', version: 1 },
  { name: 'v2-fork-child', version: 2 },
  { name: 'v3-session', version: 3 },
  { name: 'v4-nested-fork', version: 4 },
  { name: 'v5-reasoning', version: 5 },
  { name: 'v6-workspace', version: 6 },
  { name: 'v7-session', version: 7 },
];

const REPLACEMENTS: readonly unknown[] = [REMOVE, null, -1, 'forked', [], {}, [{ type: 'reasoning', text: '' }]];

type Artifact = { header?: unknown; events: unknown[] };

function artifactOf(name: string, version: FormatVersion): Artifact {
  const values = readFileSync(join(import.meta.dirname, `${name}.jsonl`), 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as unknown);
  return version === 0 ? { events: values } : { header: values[0], events: values.slice(1) };
}

/** Every mutated artifact of fixture `name`: the original first, then one edit each. */
export function mutatedArtifacts(name: string, version: FormatVersion): Artifact[] {
  const original = artifactOf(name, version);
  const out: Artifact[] = [original];
  if (original.header !== undefined) {
    for (const path of paths(original.header))
      for (const value of REPLACEMENTS) out.push({ header: edit(original.header, path, value), events: original.events });
  }
  original.events.forEach((event, index) => {
    for (const path of paths(event)) {
      for (const value of REPLACEMENTS) {
        const events = [...original.events];
        events[index] = edit(event, path, value);
        out.push(original.header === undefined ? { events } : { header: original.header, events });
      }
    }
  });
  return out;
}

function jsonlOf(artifact: Artifact): string {
  const lines = artifact.header === undefined ? artifact.events : [artifact.header, ...artifact.events];
  return lines.map((line) => `${JSON.stringify(line)}\n`).join('');
}

function decoded(text: string): unknown {
  try {
    const log = decodeJsonl(text, { sessionId: 'corpus' });
    return { header: log.header, events: log.events, sourceVersion: log.sourceVersion, tornTail: log.tornTail };
  } catch (error) {
    if (!CodecError.is(error)) throw error;
    return { code: error.code, message: error.message, issues: error.issues };
  }
}

function checked(events: readonly unknown[]): unknown {
  const checker = createEventChecker();
  return events.map((event) => checker.accept(event));
}

/** A digest per answer kind for fixture `name`: `validate(v)` for every version, `decodeJsonl`, and the event checker. */
export function corpusDigests(name: string, version: FormatVersion): Record<string, string> {
  const artifacts = mutatedArtifacts(name, version);
  const hashes = new Map<string, ReturnType<typeof createHash>>();
  const feed = (key: string, value: unknown): void => {
    let hash = hashes.get(key);
    if (hash === undefined) hashes.set(key, (hash = createHash('sha256')));
    hash.update(`${JSON.stringify(value)}\n`);
  };
  for (const artifact of artifacts) {
    for (const validator of [0, 1, 2, 3, 4, 5, 6, 7] as const) feed(`validate(${String(validator)})`, validate(validator, artifact));
    feed('decodeJsonl', decoded(jsonlOf(artifact)));
    feed('createEventChecker', checked(artifact.events));
  }
  const digests: Record<string, string> = {};
  for (const [key, hash] of hashes) digests[`${name} ${key}`] = `${String(artifacts.length)} cases ${hash.digest('hex')}`;
  return digests;
}
