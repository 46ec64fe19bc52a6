import { describe, expect, it } from 'vitest';
import type { SessionHeader } from 'dsh-codec';
import { ReadCache, type CachedLines } from './read-cache.js';

const header: SessionHeader = { format: 'dsh-session', version: 7, id: 'x', createdAt: 0, inheritedEventCount: 0 };
const entry = (chars: number, segment = '1'): Omit<CachedLines, 'size'> => ({
  segment,
  headerLine: '',
  header,
  lines: ['x'.repeat(chars)],
});

describe('the read cache', () => {
  it('keeps sessions up to its bound in characters, dropping the least recently read first', () => {
    const cache = new ReadCache(100);
    cache.set('a', entry(40));
    cache.set('b', entry(40));
    expect(cache.chars).toBe(80);
    // Reading a makes b the least recently read: c pushes b out, not a.
    expect(cache.get('a')?.segment).toBe('1');
    cache.set('c', entry(40));
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.get('c')).toBeDefined();
    expect(cache.chars).toBe(80);
  });

  it('replaces a session’s entry, never holds a log larger than its bound, and forgets on delete and clear', () => {
    const cache = new ReadCache(100);
    cache.set('a', entry(40));
    cache.set('a', entry(60, '2'));
    expect(cache.chars).toBe(60);
    expect(cache.get('a')?.segment).toBe('2');
    cache.set('big', entry(101));
    expect(cache.get('big')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    // A larger entry for a kept session drops the old one even when the new one is not kept.
    cache.set('a', entry(150));
    expect(cache.get('a')).toBeUndefined();
    expect(cache.chars).toBe(0);
    cache.set('b', entry(10));
    cache.delete('b');
    cache.delete('missing');
    expect(cache.chars).toBe(0);
    cache.set('c', entry(10));
    cache.clear();
    expect(cache.get('c')).toBeUndefined();
    expect(cache.chars).toBe(0);
  });

  it('extends a kept entry in place, counting what it adds, and lets go of one that outgrows the bound', () => {
    const cache = new ReadCache(100);
    cache.set('a', entry(40));
    const kept = cache.get('a')!;
    cache.extend('a', kept, ['y'.repeat(10), 'z'.repeat(5)]);
    expect(kept.lines).toEqual(['x'.repeat(40), 'y'.repeat(10), 'z'.repeat(5)]);
    expect(kept.size).toBe(55);
    expect(cache.chars).toBe(55);
    cache.set('b', entry(40));
    // a is now 95 with b: b (least recently read) goes, a stays.
    cache.extend('a', kept, ['w'.repeat(40)]);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.chars).toBe(95);
    cache.extend('a', kept, ['v'.repeat(10)]);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.chars).toBe(0);
    // An entry no longer kept is still extended for the reads that hold it, and not counted.
    expect(kept.lines).toHaveLength(5);
  });
});
