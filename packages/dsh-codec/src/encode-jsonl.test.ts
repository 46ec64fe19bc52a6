import { describe, expect, it } from 'vitest';
import {
  CodecError,
  CURRENT_FORMAT_VERSION,
  decodeJsonl,
  encodeEvent,
  encodeHeader,
  encodeJsonl,
  isLosslessJson,
  type SessionEvent,
  type SessionHeader,
} from 'dsh-codec';
import { CodecLog, childHeader, rootHeader } from './__fixtures__/build-log.js';

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return CodecError.is(error) ? error.code : 'not a CodecError';
  }
  return undefined;
}

describe('encoding', () => {
  it('writes the current version', () => {
    expect(CURRENT_FORMAT_VERSION).toBe(7);
    expect(JSON.parse(encodeHeader(rootHeader())).version).toBe(CURRENT_FORMAT_VERSION);
  });

  it('encodeEvent writes one newline-terminated line, envelope keys in order', () => {
    const event: SessionEvent = { ignorable: true, data: { b: 1, a: [2] }, time: 7, type: 'plugin/x', seq: 0 };
    expect(encodeEvent(event)).toBe('{"seq":0,"type":"plugin/x","time":7,"data":{"b":1,"a":[2]},"ignorable":true}\n');
    const replace: SessionEvent = {
      surfaceOp: { end: 2, start: 1, op: 'replace' },
      seq: 3,
      type: 'user/message',
      time: 1,
      data: { message: { id: 'm', role: 'user', content: [] } },
    };
    expect(encodeEvent(replace)).toBe(
      '{"seq":3,"type":"user/message","time":1,"data":{"message":{"id":"m","role":"user","content":[]}},"surfaceOp":{"op":"replace","start":1,"end":2}}\n',
    );
  });

  it('encodeHeader writes the documented key order', () => {
    const header: SessionHeader = {
      forkRequest: { digest: 'd', key: 'k' },
      inheritedEventCount: 4,
      forkCut: 3,
      parentSession: 'p',
      cwd: '/w',
      createdAt: 9,
      id: 'c',
      version: 7,
      format: 'dsh-session',
    };
    expect(encodeHeader(header)).toBe(
      '{"format":"dsh-session","version":7,"id":"c","createdAt":9,"cwd":"/w","parentSession":"p","forkCut":3,"inheritedEventCount":4,"forkRequest":{"key":"k","digest":"d"}}\n',
    );
  });

  it('refuses to write what a reader would refuse', () => {
    expect(codeOf(() => encodeEvent({ seq: 0, type: 'turn/start', time: 0, data: { turn: 0 } }))).toBe('INVALID_EVENT');
    expect(codeOf(() => encodeEvent({ seq: 0, type: 'plugin/x', time: 0, data: {} }))).toBe('INVALID_EVENT');
    expect(codeOf(() => encodeEvent({ seq: 0, type: 'plugin/x', time: 0, data: { n: Number.NaN }, ignorable: true }))).toBe(
      'INVALID_EVENT',
    );
    expect(codeOf(() => encodeHeader({ ...rootHeader(), createdAt: 1.5 }))).toBe('INVALID_HEADER');
    expect(codeOf(() => encodeHeader({ ...rootHeader(), version: 6 as 7 }))).toBe('INVALID_HEADER');
    const bad = new CodecLog().turnStart(2).events;
    expect(codeOf(() => encodeJsonl({ header: rootHeader(), events: bad }))).toBe('INVALID_RELATIONSHIP');
    expect(codeOf(() => encodeJsonl({ header: childHeader('c', 'p', 0), events: new CodecLog().title('x').events }))).toBe(
      'INVALID_RELATIONSHIP',
    );
  });

  it('encodeJsonl of an empty log is just the header line, and decodes back', () => {
    const text = encodeJsonl({ header: rootHeader(), events: [] });
    expect(text.split('\n')).toHaveLength(2);
    expect(decodeJsonl(text)).toEqual({ header: rootHeader(), events: [], sourceVersion: 7 });
  });
});

describe('isLosslessJson', () => {
  it('accepts plain JSON values, including null-prototype objects', () => {
    for (const value of [
      null,
      true,
      0,
      -1.5,
      'x',
      [],
      {},
      { a: [1, { b: null }] },
      Object.assign(Object.create(null) as object, { a: 1 }),
    ]) {
      expect(isLosslessJson(value)).toBe(true);
    }
  });

  it('refuses what JSON cannot carry back unchanged', () => {
    const cyclic: unknown[] = [];
    cyclic.push(cyclic);
    const hidden = Object.defineProperty({}, 'secret', { value: 1, enumerable: false });
    const refused: unknown[] = [
      undefined,
      Number.NaN,
      Infinity,
      -0,
      1n,
      () => 1,
      Symbol('s'),
      [1, undefined],
      new Array(2),
      new Date(0),
      new Map(),
      cyclic,
      hidden,
      { [Symbol('k')]: 1 },
      Object.assign([1], { extra: 2 }),
    ];
    for (const value of refused) expect(isLosslessJson(value)).toBe(false);
  });

  it('accepts a value shared twice (not a cycle)', () => {
    const shared = { a: 1 };
    expect(isLosslessJson({ x: shared, y: shared })).toBe(true);
  });
});

describe('CodecError', () => {
  it('is recognised by CodecError.is, also from another copy of the package', () => {
    const error = new CodecError('CORRUPT', 'x', { line: 3 });
    expect(CodecError.is(error)).toBe(true);
    expect(error).toMatchObject({ name: 'CodecError', code: 'CORRUPT', line: 3 });
    // Another installed copy shares the registered symbol, not the class.
    const foreign = Object.assign(new Error('y'), { [Symbol.for('dsh.CodecError')]: true, code: 'CORRUPT' });
    expect(CodecError.is(foreign)).toBe(true);
    expect(CodecError.is(new Error('z'))).toBe(false);
  });
});
