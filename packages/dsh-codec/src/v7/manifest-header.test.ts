import { describe, expect, it } from 'vitest';
import { CodecError, decodeJsonl, encodeHeader, encodeJsonl, validate, type SessionHeader } from 'dsh-codec';
import { CodecLog, rootHeader } from '../__fixtures__/build-log.js';

const digest = 'a'.repeat(64);
const manifest: SessionHeader = { ...rootHeader('m'), segments: [{ digest, bytes: 120, lines: 2 }] };

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    return CodecError.is(error) ? error.code : 'not a CodecError';
  }
}

describe('the V7 header (SPEC §24)', () => {
  it('writes a manifest header with its segments last, each as { digest, bytes, lines }', () => {
    expect(encodeHeader(manifest)).toBe(
      `{"format":"dsh-session","version":7,"id":"m","createdAt":1000,"inheritedEventCount":0,"segments":[{"digest":"${digest}","bytes":120,"lines":2}]}\n`,
    );
  });

  it('refuses a segment that is not a SHA-256, an empty list, or more lines than bytes', () => {
    expect(codeOf(() => encodeHeader({ ...manifest, segments: [{ digest: 'A'.repeat(64), bytes: 1, lines: 1 }] }))).toBe('INVALID_HEADER');
    expect(codeOf(() => encodeHeader({ ...manifest, segments: [{ digest: '../x', bytes: 1, lines: 1 }] }))).toBe('INVALID_HEADER');
    expect(codeOf(() => encodeHeader({ ...manifest, segments: [] }))).toBe('INVALID_HEADER');
    expect(codeOf(() => encodeHeader({ ...manifest, segments: [{ digest, bytes: 1, lines: 2 }] }))).toBe('INVALID_HEADER');
    expect(codeOf(() => encodeHeader({ ...manifest, segments: [{ digest, bytes: 1, lines: 1, extra: 1 } as never] }))).toBe(
      'INVALID_HEADER',
    );
  });

  it('is not a self-contained log: validate(7), encodeJsonl and decodeJsonl refuse a manifest and say how to read it', () => {
    const events = new CodecLog().title('t').events;
    expect(validate(7, { header: manifest, events })).toMatchObject([{ code: 'INVALID_HEADER', path: ['header', 'segments'] }]);
    expect(codeOf(() => encodeJsonl({ header: manifest, events }))).toBe('INVALID_HEADER');
    let error: unknown;
    try {
      decodeJsonl(`${encodeHeader(manifest)}{"seq":2,"type":"session/title","time":0,"data":{"title":"t"}}\n`);
    } catch (caught) {
      error = caught;
    }
    expect(CodecError.is(error) && error.code).toBe('INVALID_HEADER');
    expect((error as Error).message).toMatch(/manifest naming 1 sealed segment.*dsh export/);
  });

  it('frozen V6 refuses the segments field; a V6 log decodes as V7 with its events unchanged', () => {
    const events = new CodecLog().title('t').events;
    expect(validate(6, { header: { ...manifest, version: 6 }, events }).length).toBeGreaterThan(0);
    const v6 = encodeJsonl({ header: rootHeader('old'), events }).replace('"version":7', '"version":6');
    expect(decodeJsonl(v6)).toEqual({ header: rootHeader('old'), events, sourceVersion: 6 });
  });
});
