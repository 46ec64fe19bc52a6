import { describe, expect, it } from 'vitest';
import { checkpointTrees, workspaceAt } from './workspace-at.js';

const TREE_A = 'a'.repeat(40);
const TREE_B = 'b'.repeat(40);
const HEAD = 'c'.repeat(40);

const events = [
  { seq: 0, type: 'session/config', data: { cwd: '/w' } },
  { seq: 1, type: 'turn/start', data: { turn: 1 } },
  { seq: 2, type: 'workspace/checkpoint', data: { tree: TREE_A, after: 'turn-start', ms: 1, head: HEAD } },
  { seq: 3, type: 'tool/call', data: {} },
  { seq: 4, type: 'tool/result', data: {} },
  { seq: 5, type: 'workspace/checkpoint', data: { tree: TREE_B, after: 'call', ms: 1, skipped: [{ path: 'big', reason: 'too-large' }] } },
  { seq: 6, type: 'workspace/checkpoint', data: { tree: 'not-a-tree', after: 'call', ms: 1 } },
  { seq: 7, type: 'turn/end', data: {} },
];

describe('workspaceAt (SPEC §23: the latest checkpoint with seq ≤ N)', () => {
  it('is undefined before the first checkpoint', () => {
    expect(workspaceAt(events, 1)).toBeUndefined();
    expect(workspaceAt([], 10)).toBeUndefined();
  });

  it('a cut between a call and its result gives the files before the call', () => {
    expect(workspaceAt(events, 3)).toEqual({ seq: 2, tree: TREE_A, head: HEAD });
    expect(workspaceAt(events, 4)).toEqual({ seq: 2, tree: TREE_A, head: HEAD });
  });

  it('takes the checkpoint at the cut itself, with its skipped paths, and ignores a malformed one', () => {
    expect(workspaceAt(events, 5)).toEqual({ seq: 5, tree: TREE_B, skipped: [{ path: 'big', reason: 'too-large' }] });
    expect(workspaceAt(events, 7)?.seq).toBe(5);
  });

  it('checkpointTrees lists each tree once, in order', () => {
    expect(checkpointTrees([...events, { seq: 8, type: 'workspace/checkpoint', data: { tree: TREE_A } }])).toEqual([TREE_A, TREE_B]);
  });
});
