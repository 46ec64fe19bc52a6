import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CodecError, decodeJsonl, type FormatVersion } from 'dsh-codec';
import { logPlan, renderLog, toJsonl } from './__fixtures__/arbitrary-logs.js';

const dir = join(import.meta.dirname, '__fixtures__');
const read = (name: string) => readFileSync(join(dir, name), 'utf8');

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
const endings = [
  { kind: 'crlf', apply: (text: string) => text.replaceAll('\n', '\r\n') },
  { kind: 'cr', apply: (text: string) => text.replaceAll('\n', '\r') },
] as const;

function codecError(run: () => unknown): CodecError {
  try {
    run();
  } catch (error) {
    if (CodecError.is(error)) return error;
    throw error;
  }
  throw new Error('expected a CodecError');
}

describe.each(fixtures)('legacy line endings of $name', ({ name, version, sessionId }) => {
  const lf = read(`${name}.jsonl`);
  const options = sessionId === undefined ? {} : { sessionId };
  const reference = decodeJsonl(lf, options);

  describe.each(endings)('$kind', ({ kind, apply }) => {
    const text = read(`line-endings/${name}.${kind}.jsonl`);

    it('is the LF fixture with only its line breaks changed (the fixture cannot drift)', () => {
      expect(text).toBe(apply(lf));
      expect(text.includes('\n')).toBe(kind === 'crlf');
    });

    it('decodes to exactly the events of the LF file, no torn tail, reporting its line endings', () => {
      const decoded = decodeJsonl(text, options);
      expect(decoded).toEqual({ ...reference, lineEndings: kind });
      expect(decoded.sourceVersion).toBe(version);
      expect(decoded.tornTail).toBeUndefined();
    });

    it('reports only the cut final line as torn, at its byte offset, keeping every line before it', () => {
      const cut = text.slice(0, -12);
      const decoded = decodeJsonl(cut, options);
      const lfCut = decodeJsonl(lf.slice(0, -12), options);
      expect(decoded.events).toEqual(lfCut.events);
      expect(decoded.tornTail?.line).toBe(lfCut.tornTail?.line);
      const lines = lf.split('\n').length - 1;
      // Every line before the torn one lost one byte (CR) or gained one (CRLF) against LF.
      const shift = kind === 'crlf' ? lines - 1 : 0;
      expect(decoded.tornTail?.offset).toBe((lfCut.tornTail?.offset ?? Number.NaN) + shift);
    });
  });
});

describe('line breaks inside a log', () => {
  const lf = read('v1-session.jsonl');
  const lines = lf.split('\n').slice(0, -1);

  it('decodes a log mixing LF, CRLF and CR lines to the same events, as mixed', () => {
    const mixed = lines.map((line, index) => `${line}${['\n', '\r\n', '\r'][index % 3] ?? ''}`).join('');
    const decoded = decodeJsonl(mixed);
    expect(decoded.lineEndings).toBe('mixed');
    expect(decoded.events).toEqual(decodeJsonl(lf).events);
  });

  it('reads a doubly converted CR CR LF as one break', () => {
    expect(decodeJsonl(lf.replaceAll('\n', '\r\r\n')).events).toEqual(decodeJsonl(lf).events);
  });

  it('refuses a whole log whose line holds a lone CR between JSON tokens (a break, not whitespace), naming the line', () => {
    const broken = [...lines.slice(0, 3), lines[3]?.replace(',', ',\r'), ...lines.slice(4)].join('\n') + '\n';
    const error = codecError(() => decodeJsonl(broken));
    expect(error.code).toBe('MALFORMED_JSON');
    expect(error.line).toBe(4);
  });

  it('refuses an empty line made by two lone CRs instead of skipping it', () => {
    const error = codecError(() => decodeJsonl(lf.replaceAll('\n', '\r').replace('\r', '\r\r')));
    expect(error).toMatchObject({ code: 'MALFORMED_JSON', line: 2 });
  });
});

describe('generated logs', () => {
  const breakOf = fc.constantFrom('\n', '\r\n', '\r');

  it('never change their decoded events, version or torn tail line when their line endings change', () => {
    fc.assert(
      fc.property(
        logPlan,
        fc.constantFrom<FormatVersion>(0, 1, 2, 3, 4, 5),
        fc.array(breakOf, { minLength: 1 }),
        fc.boolean(),
        (plan, version, breaks, tear) => {
          const text = toJsonl(renderLog(plan, version));
          const options = { sessionId: 'prop-session' };
          const source = tear ? text.slice(0, -3) : text;
          let index = 0;
          const converted = source.replaceAll('\n', () => breaks[index++ % breaks.length] as string);
          // A torn header is refused either way: the same code and line.
          const outcome = (log: string) => {
            try {
              const { header, events, sourceVersion, tornTail } = decodeJsonl(log, options);
              return { header, events, sourceVersion, tornLine: tornTail?.line };
            } catch (error) {
              if (!CodecError.is(error)) throw error;
              return { code: error.code, line: error.line };
            }
          };
          expect(outcome(converted)).toEqual(outcome(source));
        },
      ),
      { numRuns: 200 },
    );
  });
});
