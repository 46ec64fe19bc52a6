/**
 * `claudeCodeSkeletonChain`: for a cut at one entry of a Claude Code file, the lines the child keeps
 * and the main line of the import's reading of those lines — both from the lines' skeletons, on one
 * index of the file's entries (integers, not maps of uuids per tree). It is the tree of
 * `claudeCodeTree` and the line picking of `lineEndingAt` / `linesOfTree` (transcript-tree.ts) for
 * files whose entry uuids are distinct and not empty; for any other file, or a cut at a line that
 * is not an entry, it returns undefined and the caller takes the general path (`nativeCut`).
 * @module
 */
import { CLAUDE_CODE_TITLE_TYPES } from '../claude-code/claude-code-tree.js';
import type { ClaudeCodeSkeleton } from './claude-code-skeleton.js';

/** Positions in the skeleton array: the kept lines (file order), and the main line of their reading. */
export type ClaudeCodeSkeletonChain = { kept: number[]; main: number[] };

/**
 * Entries as the tree holds them: `entries[i]` the skeleton of entry i (file order), `parent[i]`
 * the entry its line hangs off (-1: a root), `uuid` each entry's index by uuid.
 */
type Entries = { entries: readonly ClaudeCodeSkeleton[]; parent: Int32Array };

/** The sibling rule's lookups: the entries of each response id and the entry declaring each call. */
type Siblings = { ofMessage: Map<string, number[]>; callOwner: Map<string, number> };

function siblingsOf(entries: readonly ClaudeCodeSkeleton[]): Siblings {
  const ofMessage = new Map<string, number[]>();
  const callOwner = new Map<string, number>();
  entries.forEach((entry, index) => {
    const message = entry.message;
    if (entry.type !== 'assistant' || message === undefined) return;
    if (message.id !== undefined) {
      const same = ofMessage.get(message.id);
      if (same === undefined) ofMessage.set(message.id, [index]);
      else same.push(index);
    }
    if (Array.isArray(message.content)) for (const block of message.content) if (block.type === 'tool_use') callOwner.set(block.id ?? 'undefined', index);
  });
  return { ofMessage, callOwner };
}

/** `absorbs` of claudeCodeTree: whether entry `index`, off the line `marks`, belongs to it. */
function absorbs(entries: readonly ClaudeCodeSkeleton[], siblings: Siblings, index: number, marks: Uint8Array): boolean {
  const entry = entries[index] as ClaudeCodeSkeleton;
  const message = entry.message;
  if (message === undefined) return false;
  if (entry.type === 'assistant') {
    if (message.id === undefined) return false;
    return (siblings.ofMessage.get(message.id) ?? []).some((other) => other !== index && marks[other] === 1);
  }
  const content = message.content;
  if (!Array.isArray(content) || content.length === 0) return false;
  return content.every((block) => {
    if (block.type !== 'tool_result') return false;
    const owner = siblings.callOwner.get(block.tool_use_id ?? 'undefined');
    return owner !== undefined && marks[owner] === 1;
  });
}

/**
 * `lineOfLeaf` over the entries `0..limit`: the leaf's ancestors (a parent past `limit` is none),
 * then, in file order, each entry whose parent is on the line and that the line absorbs.
 */
function lineMarks({ entries, parent }: Entries, siblings: Siblings, leaf: number, limit: number): Uint8Array {
  const marks = new Uint8Array(entries.length);
  for (let node = leaf; marks[node] !== 1; ) {
    marks[node] = 1;
    const up = parent[node] as number;
    if (up < 0 || up > limit) break;
    node = up;
  }
  for (let i = 0; i <= limit; i++) {
    const up = parent[i] as number;
    if (marks[i] === 1 || up < 0 || up > limit || marks[up] !== 1) continue;
    if (absorbs(entries, siblings, i, marks)) marks[i] = 1;
  }
  return marks;
}

/**
 * The parents of `entries` as claudeCodeTree links them: `parentUuid`, else `logicalParentUuid`; a
 * parent no entry has links to the entry written just before. `indexOf` gives an entry's index by
 * uuid (undefined: not an entry).
 */
function parentsOf(entries: readonly ClaudeCodeSkeleton[], indexOf: (uuid: string) => number | undefined): Int32Array {
  const parent = new Int32Array(entries.length);
  entries.forEach((entry, index) => {
    const key = entry.parentUuid ?? entry.logicalParentUuid;
    const found = key === undefined ? -1 : indexOf(key);
    parent[index] = found ?? index - 1;
  });
  return parent;
}

/** The chain to the entry at `at` (a position in `skeletons`) and its reading's main line, or undefined (see the module comment). */
export function claudeCodeSkeletonChain(skeletons: readonly ClaudeCodeSkeleton[], at: number): ClaudeCodeSkeletonChain | undefined {
  // A subagent's own file is all sidechain: its lines are entries; a main file's sidechain lines are not.
  let treed = 0;
  let sidechain = 0;
  for (const skeleton of skeletons) {
    if (skeleton.uuid === undefined) continue;
    treed++;
    if (skeleton.isSidechain === true) sidechain++;
  }
  const allSidechain = treed > 0 && sidechain === treed;
  const entries: ClaudeCodeSkeleton[] = [];
  const lineOf: number[] = [];
  const byUuid = new Map<string, number>();
  let leaf = -1;
  skeletons.forEach((skeleton, position) => {
    const uuid = skeleton.uuid;
    if (uuid === undefined || CLAUDE_CODE_TITLE_TYPES.has(skeleton.type ?? '') || (skeleton.isSidechain === true && !allSidechain)) return;
    if (position === at) leaf = entries.length;
    // A repeated or empty uuid: marked, and the general path takes the file.
    byUuid.set(uuid, byUuid.has(uuid) || uuid === '' ? -1 : entries.length);
    entries.push(skeleton);
    lineOf.push(position);
  });
  if (leaf < 0) return undefined;
  for (const index of byUuid.values()) if (index < 0) return undefined;
  const tree: Entries = { entries, parent: parentsOf(entries, (uuid) => byUuid.get(uuid)) };
  const marks = lineMarks(tree, siblingsOf(entries), leaf, leaf);
  const keptEntries: ClaudeCodeSkeleton[] = [];
  const kept: number[] = [];
  const keptIndex = new Int32Array(leaf + 1).fill(-1);
  for (let i = 0; i <= leaf; i++) {
    if (marks[i] !== 1) continue;
    keptIndex[i] = kept.length;
    kept.push(lineOf[i] as number);
    keptEntries.push(entries[i] as ClaudeCodeSkeleton);
  }
  // The reading of the kept lines: their own tree (every kept line is an entry of it), main line first.
  const keptTree: Entries = {
    entries: keptEntries,
    parent: parentsOf(keptEntries, (uuid) => {
      const index = byUuid.get(uuid);
      const inKept = index === undefined || index > leaf ? -1 : (keptIndex[index] as number);
      return inKept < 0 ? undefined : inKept;
    }),
  };
  let mainLeaf = keptEntries.length - 1;
  while (mainLeaf > 0 && keptEntries[mainLeaf]?.type !== 'user' && keptEntries[mainLeaf]?.type !== 'assistant') mainLeaf--;
  if (keptEntries[mainLeaf]?.type !== 'user' && keptEntries[mainLeaf]?.type !== 'assistant') mainLeaf = keptEntries.length - 1;
  const mainMarks = lineMarks(keptTree, siblingsOf(keptEntries), mainLeaf, keptEntries.length - 1);
  const main = kept.filter((_, index) => mainMarks[index] === 1);
  return { kept, main };
}
