import { describe, expect, it } from 'vitest';
import { lineageOf, sessionForest } from 'dsh-host';

const sessions = [
  { id: 'root', title: 'baseline', createdAt: 1 },
  { id: 'a', title: 'peer', parentSession: 'root', forkCut: 4, createdAt: 3 },
  { id: 'b', title: 'peer', parentSession: 'root', forkCut: 4, createdAt: 2 },
  { id: 'a1', parentSession: 'a', forkCut: 9, createdAt: 5 },
  { id: 'orphan', parentSession: 'deleted', forkCut: 1, createdAt: 6 },
];

describe('lineageOf', () => {
  it('lists ancestors root first and descendants as trees, children oldest first', () => {
    const lineage = lineageOf(sessions, 'a');
    expect(lineage.session).toMatchObject({ id: 'a', forkCut: 4 });
    expect(lineage.ancestors.map((node) => node.id)).toEqual(['root']);
    expect(lineage.descendants).toEqual([{ id: 'a1', parentSession: 'a', forkCut: 9, createdAt: 5, children: [] }]);
    const rootLineage = lineageOf(sessions, 'root');
    expect(rootLineage.ancestors).toEqual([]);
    expect(rootLineage.descendants.map((tree) => [tree.id, tree.children.map((child) => child.id)])).toEqual([
      ['b', []],
      ['a', ['a1']],
    ]);
    expect(lineageOf(sessions, 'a1').ancestors.map((node) => node.id)).toEqual(['root', 'a']);
  });

  it('marks a deleted ancestor as missing and stops there', () => {
    expect(lineageOf(sessions, 'orphan').ancestors).toEqual([{ id: 'deleted', missing: true }]);
  });

  it('refuses an unknown id with SESSION_NOT_FOUND', () => {
    expect(() => lineageOf(sessions, 'nope')).toThrow(expect.objectContaining({ code: 'SESSION_NOT_FOUND' }));
  });
});

describe('sessionForest', () => {
  it('roots every session without an existing parent', () => {
    const forest = sessionForest(sessions);
    expect(forest.map((tree) => tree.id)).toEqual(['root', 'orphan']);
    expect(forest[0]?.children.map((tree) => tree.id)).toEqual(['b', 'a']);
  });
});
