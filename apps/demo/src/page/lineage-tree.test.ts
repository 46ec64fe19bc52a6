import { expect, test } from 'vitest';
import { lineageForest } from './lineage-tree.js';
import type { SessionRow } from './wire.js';

function row(id: string, createdAt: number, parentSession?: string, forkCut?: number): SessionRow {
  return { id, createdAt, updatedAt: createdAt, lastSeq: 0, live: false, status: 'stored', formatVersion: 4, sharesCwdWith: [], ...(parentSession ? { parentSession } : {}), ...(forkCut === undefined ? {} : { forkCut }) };
}

test('forks nest under their parent in creation order; an orphan becomes a root', () => {
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
    ['base', [['peer-a', [['grandchild', []]]], ['peer-b', []]]],
  ]);
});
