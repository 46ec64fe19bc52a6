import { expect, test } from 'vitest';
import { lineageForest, sessionLabel } from './lineage-tree.js';
import type { SessionRow } from './wire.js';

function row(id: string, createdAt: number, parentSession?: string, forkCut?: number, title?: string): SessionRow {
  return {
    id,
    createdAt,
    ...(title === undefined ? {} : { title }),
    updatedAt: createdAt,
    lastSeq: 0,
    live: false,
    status: 'stored',
    formatVersion: 4,
    sharesCwdWith: [],
    ...(parentSession ? { parentSession } : {}),
    ...(forkCut === undefined ? {} : { forkCut }),
  };
}

test('forks nest under their parent in creation order at the same cut; an orphan becomes a root', () => {
  const forest = lineageForest([
    row('peer-b', 30, 'base', 13),
    row('base', 10),
    row('peer-a', 20, 'base', 13),
    row('grandchild', 40, 'peer-a', 20),
    row('orphan', 5, 'deleted-parent', 2),
  ]);
  const shape = (nodes: typeof forest): unknown => nodes.map((node) => [node.session.id, shape(node.children)]);
  expect(shape(forest)).toEqual([
    ['orphan', []],
    [
      'base',
      [
        ['peer-a', [['grandchild', []]]],
        ['peer-b', []],
      ],
    ],
  ]);
});

test('children are listed in seq order of their fork cut, whatever their creation order', () => {
  const forest = lineageForest([
    row('base', 10),
    row('late-cut', 20, 'base', 30),
    row('early-cut', 40, 'base', 5),
    row('mid-cut', 30, 'base', 14),
  ]);
  expect(forest[0]?.children.map((node) => node.session.id)).toEqual(['early-cut', 'mid-cut', 'late-cut']);
});

test('a fork without a title of its own is named after its parent and cut; a titled one keeps its title', () => {
  const rows = [
    row('base', 10, undefined, undefined, 'Tour'),
    row('f1', 20, 'base', 14),
    row('f2', 30, 'f1', 18),
    row('f3', 40, 'base', 14, 'mine'),
    row('orphan', 5, 'gone', 2),
    row('plain', 6),
    row('f4', 50, 'base', 20, 'Tour'),
  ];
  const byId = new Map(rows.map((session) => [session.id, session]));
  expect(rows.map((session) => sessionLabel(session, byId))).toEqual([
    'Tour',
    'Tour @ seq 14',
    'Tour @ seq 14 @ seq 18',
    'mine',
    'gone @ seq 2',
    'plain',
    'Tour @ seq 20',
  ]);
});
