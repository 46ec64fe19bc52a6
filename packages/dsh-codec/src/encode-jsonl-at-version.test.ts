import { describe, expect, it } from 'vitest';
import { CodecError, decodeJsonl, encodeJsonl, encodeJsonlAtVersion, validate, type SessionHeader } from 'dsh-codec';
import { childHeader, CodecLog, completedTurn, rootHeader } from './__fixtures__/build-log.js';
import { unrepresentable } from './encode-jsonl-at-version.js';
import { migrateV7ToV6 } from './v7/migrate-v7-to-v6.js';

function thrown(run: () => unknown): CodecError {
  try {
    run();
  } catch (error) {
    if (CodecError.is(error)) return error;
    throw error;
  }
  throw new Error('expected a CodecError, nothing was thrown');
}

const parsedLines = (text: string): unknown[] =>
  text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as unknown);

describe('encodeJsonlAtVersion: a V7 log written back as V6 (SPEC §24)', () => {
  const events = completedTurn(new CodecLog().title('t'), 1).events;

  it('writes the same events under a V6 header the frozen V6 validator accepts, and reads back as the same V7 log', () => {
    const cut = events.length - 1;
    const header: SessionHeader = { ...childHeader('child', 'parent', cut), cwd: '/w', forkRequest: { key: 'k', digest: 'd'.repeat(64) } };
    const fork = new CodecLog(events).endSeed(true).events;
    for (const artifact of [
      { header: rootHeader('root'), events },
      { header, events: fork },
    ]) {
      const text = encodeJsonlAtVersion(artifact, 6);
      const [first, ...rest] = parsedLines(text);
      expect(first).toMatchObject({ format: 'dsh-session', version: 6, id: artifact.header.id });
      expect(validate(6, { header: first, events: rest })).toEqual([]);
      expect(rest).toEqual(JSON.parse(JSON.stringify(artifact.events)));
      // Only the header's version differs from the V7 bytes.
      expect(text).toBe(encodeJsonl(artifact).replace('"version":7', '"version":6'));
      expect(decodeJsonl(text)).toEqual({ ...artifact, sourceVersion: 6 });
    }
  });

  it('writes V7 for version 7, and refuses any other target naming the versions it writes', () => {
    const artifact = { header: rootHeader('root'), events };
    expect(encodeJsonlAtVersion(artifact, 7)).toBe(encodeJsonl(artifact));
    for (const version of [5, 8, 6.5]) {
      const error = thrown(() => encodeJsonlAtVersion(artifact, version as 6));
      expect(error.code).toBe('UNSUPPORTED_VERSION');
      expect(error.message).toBe(`encodeJsonlAtVersion: expected a format version dsh writes, 6 or 7, got ${String(version)}`);
    }
  });

  it('refuses a manifest naming segments (not self-contained) and an invalid log, as encodeJsonl does', () => {
    const manifest: SessionHeader = { ...rootHeader('m'), segments: [{ digest: 'a'.repeat(64), bytes: 10, lines: 1 }] };
    expect(thrown(() => encodeJsonlAtVersion({ header: manifest, events }, 6)).code).toBe('INVALID_HEADER');
    const broken = events.filter((event) => event.type !== 'turn/start');
    expect(thrown(() => encodeJsonlAtVersion({ header: rootHeader('root'), events: broken }, 6)).code).toMatch(/^INVALID_/);
  });
});

describe('the V7 → V6 step refuses what V6 cannot hold, never dropping it', () => {
  it('names the first such event by seq and type, with the V6 rule it breaks', () => {
    // A field V6's strict session/config has no room for (what a V7-only config field would be).
    const log = new CodecLog().add('session/config', { tools: [], cwd: '/w', model: 'm' }).title('t');
    log.add('session/config', { tools: [], cwd: '/w', model: 'm', checkpoints: false });
    const { issues } = migrateV7ToV6({ header: rootHeader('r'), events: log.events });
    const error = unrepresentable(issues, log.events);
    expect(error.code).toBe('UNREPRESENTABLE');
    expect(error.message).toMatch(
      /^event seq 2 \(session\/config\) holds data format V6 cannot hold, so the log cannot go back to V6 without losing it: .*checkpoints.*\. Nothing was dropped; keep the log at V7\.$/,
    );
    expect(error.issues[0]).toMatchObject({ seq: 2 });
  });

  it('refuses a stored checkpoints: false through encodeJsonlAtVersion, naming its seq', () => {
    const log = new CodecLog().title('t').add('session/config', { tools: [], cwd: '/w', model: 'm', checkpoints: false });
    const error = thrown(() => encodeJsonlAtVersion({ header: rootHeader('r'), events: log.events }, 6));
    expect(error.code).toBe('UNREPRESENTABLE');
    expect(error.message).toMatch(/^event seq 1 \(session\/config\) holds data format V6 cannot hold.*checkpoints/);
    expect(encodeJsonlAtVersion({ header: rootHeader('r'), events: log.events }, 7)).toBe(
      encodeJsonl({ header: rootHeader('r'), events: log.events }),
    );
  });

  it('names a header field V6 has no room for', () => {
    const header = { ...rootHeader('r'), segments: [{ digest: 'a'.repeat(64), bytes: 10, lines: 1 }] };
    const error = unrepresentable(migrateV7ToV6({ header, events: [] }).issues, []);
    expect(error.code).toBe('UNREPRESENTABLE');
    expect(error.message).toContain('the header holds data format V6 cannot hold');
    expect(error.message).toContain('header.segments: V6 has no such field');
  });
});
