import { describe, expect, it } from 'vitest';
import { HostError, resolveSessionRef } from 'dsh-host';

const sessions = [
  { id: 'root', title: 'baseline', createdAt: 1 },
  { id: 'a', title: 'peer', parentSession: 'root', forkCut: 4, createdAt: 3 },
  { id: 'b', title: 'peer', parentSession: 'root', forkCut: 4, createdAt: 2 },
  { id: 'a1', parentSession: 'a', forkCut: 9, createdAt: 5 },
  { id: 'orphan', parentSession: 'deleted', forkCut: 1, createdAt: 6 },
];

describe('resolveSessionRef', () => {
  it('prefers an exact id, then a unique latest title', () => {
    expect(resolveSessionRef(sessions, 'a')).toBe('a');
    expect(resolveSessionRef(sessions, 'baseline')).toBe('root');
    const namedLikeAnId = { id: 'baseline', createdAt: 9 };
    expect(resolveSessionRef([...sessions, namedLikeAnId], 'baseline')).toBe('baseline');
  });

  it('refuses a name that matches several sessions with NAME_AMBIGUOUS listing the ids', () => {
    try {
      resolveSessionRef(sessions, 'peer');
      expect.fail('expected NAME_AMBIGUOUS');
    } catch (error) {
      if (!HostError.is(error)) throw error;
      expect(error.code).toBe('NAME_AMBIGUOUS');
      expect(error.details.candidates).toEqual(['a', 'b']);
      expect(error.message).toContain('a, b');
    }
  });

  it('prefers the session that set a name over forks that inherited it', () => {
    const entries = [
      { id: 'base', title: 'baseline' },
      { id: 'fork-1', title: 'baseline', titleInherited: true },
      { id: 'fork-2', title: 'baseline', titleInherited: true },
    ];
    expect(resolveSessionRef(entries, 'baseline')).toBe('base');
    expect(resolveSessionRef(entries.slice(1, 2), 'baseline')).toBe('fork-1');
    expect(() => resolveSessionRef(entries.slice(1), 'baseline')).toThrow(expect.objectContaining({ code: 'NAME_AMBIGUOUS' }));
    expect(() => resolveSessionRef([...entries, { id: 'other', title: 'baseline' }], 'baseline')).toThrow(
      expect.objectContaining({ code: 'NAME_AMBIGUOUS', details: { candidates: ['base', 'other'] } }),
    );
  });

  it('refuses an unknown ref with SESSION_NOT_FOUND', () => {
    expect(() => resolveSessionRef(sessions, 'ghost')).toThrow(expect.objectContaining({ code: 'SESSION_NOT_FOUND' }));
  });
});
