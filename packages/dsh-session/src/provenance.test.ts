import { describe, expect, it } from 'vitest';
import { provenanceKind, type Provenance } from './provenance.js';

describe('provenance', () => {
  it('gives its value back only through the kind that minted it', () => {
    const segments = provenanceKind<{ segment: string; count: number }>();
    const files = provenanceKind<{ segment: string; count: number }>();
    const minted = segments.mint({ segment: '7', count: 41 });
    expect(segments.read(minted)).toEqual({ segment: '7', count: 41 });
    // Another backend's kind (even one with the same value type) reads nothing.
    expect(files.read(minted)).toBeUndefined();
    expect(segments.read(files.mint({ segment: '7', count: 41 }))).toBeUndefined();
    expect(segments.read(undefined)).toBeUndefined();
  });

  it('shows the store nothing: no readable property, frozen, not forgeable from a plain object', () => {
    const kind = provenanceKind<{ segment: string }>();
    const minted = kind.mint({ segment: '7' });
    expect(Object.keys(minted)).toEqual([]);
    expect(Object.getOwnPropertySymbols(minted)).toEqual([]);
    expect(JSON.stringify(minted)).toBe('{}');
    expect({ ...minted }).toEqual({});
    expect(Object.isFrozen(minted)).toBe(true);
    expect(kind.read({ ...minted })).toBeUndefined();
    expect(kind.read({ segment: '7' } as unknown as Provenance)).toBeUndefined();
    // @ts-expect-error -- the store cannot read a backend's provenance: the type has no such property.
    expect(minted.segment).toBeUndefined();
  });
});
