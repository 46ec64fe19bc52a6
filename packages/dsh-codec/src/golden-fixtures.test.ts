import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeJsonl, encodeJsonl, migrate, validate, type FormatVersion } from 'dsh-codec';

const dir = join(import.meta.dirname, '__fixtures__');
const read = (name: string) => readFileSync(join(dir, name), 'utf8');

/** The raw artifact of a JSONL file, as its own version wrote it (no validation, no migration). */
function raw(text: string, version: FormatVersion): { header?: unknown; events: unknown[] } {
  const values = text
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as unknown);
  return version === 0 ? { events: values } : { header: values[0], events: values.slice(1) };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

const fixtures: { name: string; version: FormatVersion; sessionId?: string }[] = [
  { name: 'v0-session', version: 0, sessionId: 'legacy-v0' },
  { name: 'v1-session', version: 1 },
  { name: 'v2-fork-child', version: 2 },
  { name: 'v3-session', version: 3 },
  { name: 'v4-nested-fork', version: 4 },
  { name: 'v5-reasoning', version: 5 },
  { name: 'v6-workspace', version: 6 },
  { name: 'v7-session', version: 7 },
];

describe.each(fixtures)('golden fixture $name', ({ name, version, sessionId }) => {
  const text = read(`${name}.jsonl`);
  const expected = read(`${name}.expected-v7.jsonl`);
  const options = sessionId === undefined ? {} : { sessionId };

  it(`is valid under the frozen V${String(version)} validator`, () => {
    expect(validate(version, raw(text, version))).toEqual([]);
  });

  it('decodes to the expected V7, byte for byte once encoded', () => {
    const decoded = decodeJsonl(text, options);
    expect(decoded.sourceVersion).toBe(version);
    expect(decoded.tornTail).toBeUndefined();
    expect(encodeJsonl(decoded)).toBe(expected);
    const reference = decodeJsonl(expected);
    expect({ header: decoded.header, events: decoded.events }).toEqual({ header: reference.header, events: reference.events });
  });

  it('migrates without touching its input, and migrating twice changes nothing', () => {
    const input = deepFreeze(raw(text, version));
    const once = migrate(input, version, options);
    expect(migrate(input, version, options)).toEqual(once);
    expect(migrate(once, 7)).toEqual(once);
    expect(encodeJsonl(once)).toBe(expected);
  });

  it('reports a torn final line as a torn tail and keeps the lines before it', () => {
    const cut = text.slice(0, -10);
    const decoded = decodeJsonl(cut, options);
    const complete = cut.slice(0, cut.lastIndexOf('\n') + 1);
    expect(decoded.tornTail).toEqual({ offset: Buffer.byteLength(complete), line: complete.split('\n').length });
    expect(decoded.events).toEqual(decodeJsonl(expected).events.slice(0, -1));
  });

  it('round-trips encode → decode', () => {
    const decoded = decodeJsonl(text, options);
    const again = decodeJsonl(encodeJsonl(decoded));
    expect(again).toEqual({ header: decoded.header, events: decoded.events, sourceVersion: 7 });
  });
});

describe('frozen validators across versions', () => {
  it('V3 rejects the forked turn-end reason and forked synthetic results', () => {
    const v4 = raw(read('v4-nested-fork.jsonl'), 4);
    const asV3 = { header: { ...(v4.header as object), version: 3 }, events: v4.events };
    const issues = validate(3, asV3);
    const forkedReasons = v4.events.filter((event) => (event as { data: { reason?: { kind?: string } } }).data.reason?.kind === 'forked');
    const forkedResults = v4.events.filter((event) => JSON.stringify(event).includes('forked-tool-result-'));
    expect(forkedReasons.length).toBeGreaterThan(0);
    expect(forkedResults.length).toBeGreaterThan(0);
    for (const event of [...forkedReasons, ...forkedResults]) {
      const seq = (event as { seq: number }).seq;
      expect(
        issues.some((issue) => issue.seq === seq),
        `seq ${String(seq)}`,
      ).toBe(true);
    }
  });

  it('each older validator refuses a newer log (its additions are unknown to it)', () => {
    const v3 = raw(read('v3-session.jsonl'), 3);
    expect(validate(2, { header: { ...(v3.header as object), version: 2 }, events: v3.events })).not.toEqual([]);
    const v2 = raw(read('v2-fork-child.jsonl'), 2);
    const { parentSession: _p, forkCut: _f, inheritedEventCount: _i, ...v1Header } = v2.header as Record<string, unknown>;
    expect(validate(1, { header: { ...v1Header, version: 1 }, events: v2.events })).not.toEqual([]);
    const v1 = raw(read('v1-session.jsonl'), 1);
    expect(validate(0, { events: v1.events })).not.toEqual([]);
  });

  it('V4 accepts every valid V3 log once its header says version 4', () => {
    const v3 = raw(read('v3-session.jsonl'), 3);
    expect(validate(4, { header: { ...(v3.header as object), version: 4 }, events: v3.events })).toEqual([]);
  });

  it('V4 refuses reasoning blocks and the forkRequest header field, which V5 admits', () => {
    const v5 = raw(read('v5-reasoning.jsonl'), 5);
    const { forkRequest: _request, ...v4Header } = v5.header as Record<string, unknown>;
    const issues = validate(4, { header: { ...v4Header, version: 4 }, events: v5.events });
    const reasoning = v5.events.filter((event) => JSON.stringify(event).includes('"type":"reasoning"'));
    expect(reasoning.length).toBeGreaterThan(0);
    for (const event of reasoning) {
      const seq = (event as { seq: number }).seq;
      expect(
        issues.some((issue) => issue.seq === seq),
        `seq ${String(seq)}`,
      ).toBe(true);
    }
    expect(validate(4, { header: { ...(v5.header as object), version: 4 }, events: [] })).toMatchObject([
      { code: 'INVALID_HEADER', path: ['header'] },
    ]);
  });

  it('V5 accepts every valid V4 log once its header says version 5', () => {
    const v4 = raw(read('v4-nested-fork.jsonl'), 4);
    expect(validate(5, { header: { ...(v4.header as object), version: 5 }, events: v4.events })).toEqual([]);
  });
});
