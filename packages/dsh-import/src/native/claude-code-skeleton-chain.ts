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
 * The file's entries on integers: `parentKey[i]` the entry whose uuid entry i's parent key names
 * (-1: no key, -2: a key no entry has), `group[i]` entry i's response (message id) number (-1:
 * none), and the calls each entry declares (`calls[callStart[i]..callStart[i + 1])`, call numbers).
 */
type Index = {
  entries: readonly ClaudeCodeSkeleton[];
  parentKey: Int32Array;
  group: Int32Array;
  /** The entries of each response number, in file order. */
  groups: number[][];
  callStart: Int32Array;
  calls: Int32Array;
  callNumber: Map<string, number>;
};

function indexOf(entries: readonly ClaudeCodeSkeleton[], byUuid: ReadonlyMap<string, number>): Index {
  const n = entries.length;
  const parentKey = new Int32Array(n);
  const group = new Int32Array(n).fill(-1);
  const groups: number[][] = [];
  const groupNumber = new Map<string, number>();
  const callStart = new Int32Array(n + 1);
  const calls: number[] = [];
  const callNumber = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const entry = entries[i] as ClaudeCodeSkeleton;
    const key = entry.parentUuid ?? entry.logicalParentUuid;
    parentKey[i] = key === undefined ? -1 : (byUuid.get(key) ?? -2);
    callStart[i] = calls.length;
    const message = entry.message;
    if (entry.type !== 'assistant' || message === undefined) continue;
    if (message.id !== undefined) {
      let number = groupNumber.get(message.id);
      if (number === undefined) {
        number = groups.length;
        groupNumber.set(message.id, number);
        groups.push([]);
      }
      group[i] = number;
      (groups[number] as number[]).push(i);
    }
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content) {
      if (block.type !== 'tool_use') continue;
      const id = block.id ?? 'undefined';
      let number = callNumber.get(id);
      if (number === undefined) {
        number = callNumber.size;
        callNumber.set(id, number);
      }
      calls.push(number);
    }
  }
  callStart[n] = calls.length;
  return { entries, parentKey, group, groups, callStart, calls: Int32Array.from(calls), callNumber };
}

/** For each call number, the last of `members` (entry indices, file order) declaring it (-1: none): claudeCodeTree's `callOwner`. */
function callOwners(index: Index, members: Iterable<number>): Int32Array {
  const owner = new Int32Array(index.callNumber.size).fill(-1);
  for (const i of members)
    for (let c = index.callStart[i] as number; c < (index.callStart[i + 1] as number); c++) owner[index.calls[c] as number] = i;
  return owner;
}

/** `absorbs` of claudeCodeTree: whether entry `i`, off the line `marks`, belongs to it. */
function absorbs(index: Index, owner: Int32Array, i: number, marks: Uint8Array): boolean {
  const entry = index.entries[i] as ClaudeCodeSkeleton;
  const message = entry.message;
  if (message === undefined) return false;
  if (entry.type === 'assistant') {
    const number = index.group[i] as number;
    if (number < 0) return false;
    return (index.groups[number] as number[]).some((other) => other !== i && marks[other] === 1);
  }
  const content = message.content;
  if (!Array.isArray(content) || content.length === 0) return false;
  return content.every((block) => {
    if (block.type !== 'tool_result') return false;
    const number = index.callNumber.get(block.tool_use_id ?? 'undefined');
    const by = number === undefined ? -1 : (owner[number] as number);
    return by >= 0 && marks[by] === 1;
  });
}

/**
 * `lineOfLeaf` over the entries `members` (indices in file order; `parent` of each, -1: none):
 * the leaf's ancestors, then, in file order, each member whose parent is on the line and that the
 * line absorbs (with `owner` as its call owners).
 */
function lineMarks(index: Index, members: readonly number[], parent: Int32Array, owner: Int32Array, leaf: number): Uint8Array {
  const marks = new Uint8Array(index.entries.length);
  for (let node = leaf; marks[node] !== 1;) {
    marks[node] = 1;
    const up = parent[node] as number;
    if (up < 0) break;
    node = up;
  }
  for (const i of members) {
    const up = parent[i] as number;
    if (marks[i] === 1 || up < 0 || marks[up] !== 1) continue;
    if (absorbs(index, owner, i, marks)) marks[i] = 1;
  }
  return marks;
}

/**
 * The parents of `members` as claudeCodeTree links them in a tree of those entries alone:
 * `parentUuid`, else `logicalParentUuid`; a parent that is no entry links to the member written
 * just before, and so does an entry that is not a member when `linkOutside` (the tree holds only
 * the members), else it is none (the tree holds it, but the line is cut before it). Indexed by
 * entry; -1 for none.
 */
function parentsOf(index: Index, members: readonly number[], isMember: (i: number) => boolean, linkOutside: boolean): Int32Array {
  const parent = new Int32Array(index.entries.length).fill(-1);
  members.forEach((i, position) => {
    const key = index.parentKey[i] as number;
    if (key === -1) return;
    const previous = position > 0 ? (members[position - 1] as number) : -1;
    parent[i] = key >= 0 && isMember(key) ? key : key === -2 || linkOutside ? previous : -1;
  });
  return parent;
}

/**
 * The chain to the entry REF names (the first line whose uuid is `ref`) and its reading's main
 * line, or undefined (see the module comment; also for a `ref` no line has).
 */
export function claudeCodeSkeletonChain(skeletons: readonly ClaudeCodeSkeleton[], ref: string): ClaudeCodeSkeletonChain | undefined {
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
  let distinct = true;
  for (let position = 0; position < skeletons.length; position++) {
    const skeleton = skeletons[position] as ClaudeCodeSkeleton;
    const uuid = skeleton.uuid;
    if (uuid === undefined || CLAUDE_CODE_TITLE_TYPES.has(skeleton.type ?? '') || (skeleton.isSidechain === true && !allSidechain))
      continue;
    const size = byUuid.size;
    byUuid.set(uuid, entries.length);
    // A repeated or empty uuid: the general path takes the file.
    if (byUuid.size === size || uuid === '') distinct = false;
    entries.push(skeleton);
    lineOf.push(position);
  }
  if (!distinct) return undefined;
  // The first line with that uuid (compared after the map has hashed the uuids: quick to tell apart).
  const at = skeletons.findIndex((skeleton) => skeleton.uuid === ref);
  const leaf = at < 0 ? -1 : (byUuid.get(ref) as number);
  if (leaf < 0 || lineOf[leaf] !== at) return undefined;
  const index = indexOf(entries, byUuid);
  // The chain as lineEndingAt picks it: the entries up to the leaf.
  const upTo = Array.from({ length: leaf + 1 }, (_, i) => i);
  const marks = lineMarks(
    index,
    upTo,
    parentsOf(index, upTo, (i) => i <= leaf, false),
    callOwners(index, index.entries.keys()),
    leaf,
  );
  const keptEntries = upTo.filter((i) => marks[i] === 1);
  // The reading of the kept lines: their own tree (every kept line is an entry of it), main line first.
  let mainLeaf = keptEntries.length - 1;
  const isMessage = (i: number): boolean => entries[i]?.type === 'user' || entries[i]?.type === 'assistant';
  while (mainLeaf > 0 && !isMessage(keptEntries[mainLeaf] as number)) mainLeaf--;
  if (!isMessage(keptEntries[mainLeaf] as number)) mainLeaf = keptEntries.length - 1;
  const mainMarks = lineMarks(
    index,
    keptEntries,
    parentsOf(index, keptEntries, (i) => marks[i] === 1, true),
    callOwners(index, keptEntries),
    keptEntries[mainLeaf] as number,
  );
  return {
    kept: keptEntries.map((i) => lineOf[i] as number),
    main: keptEntries.filter((i) => mainMarks[i] === 1).map((i) => lineOf[i] as number),
  };
}
