/**
 * `claudeCodeSkeletonChain`: for a cut at one entry of a Claude Code file, the lines the child keeps
 * and the main line of the import's reading of those lines — both from the file's line table
 * (`ClaudeCodeLineTable`: the lines' skeletons as rows, strings as keys), on one index of the
 * file's entries (integers, no map keyed by strings). It is the tree of `claudeCodeTree` and the
 * line picking of `lineEndingAt` / `linesOfTree` (transcript-tree.ts) for files whose entry uuids
 * are distinct and not empty; for any other file, or a cut at a line that is not an entry, it
 * returns undefined and the caller takes the general path (`nativeCut`).
 * @module
 */
import { CLAUDE_CODE_TITLE_TYPES } from '../claude-code/claude-code-tree.js';
import {
  BLOCK_ID,
  BLOCK_TOOL_USE_ID,
  BLOCK_TYPE,
  BLOCKS_END,
  BLOCKS_START,
  CONTENT,
  CONTENT_BLOCKS,
  IS_SIDECHAIN,
  LOGICAL_PARENT_UUID,
  MESSAGE,
  MESSAGE_ID,
  PARENT_UUID,
  TYPE,
  UUID,
  type ClaudeCodeKeys as Keys,
  type ClaudeCodeLineTable,
} from './claude-code-line-table.js';

/** Rows of the line table: the kept lines (file order), and the main line of their reading. */
export type ClaudeCodeSkeletonChain = { kept: number[]; main: number[] };

/**
 * The file's entries on integers: `rowOf[i]` entry i's row, `parentKey[i]` the entry whose uuid
 * entry i's parent key names (-1: no key, -2: a key no entry has), `group[i]` entry i's response
 * (message id) number (-1: none), and the calls each entry declares (`calls[callStart[i]..callStart[i + 1])`,
 * call numbers; `callOfKey` the number of a call id's key, -1 for none).
 */
type Index = {
  table: ClaudeCodeLineTable;
  keys: Keys;
  rowOf: readonly number[];
  parentKey: Int32Array;
  group: Int32Array;
  /** The entries of each response number, in file order. */
  groups: number[][];
  callStart: Int32Array;
  calls: Int32Array;
  callOfKey: Int32Array;
  callCount: number;
};

/** The key of a call id slot's value as the reader takes it (`String(undefined)` for none). */
function callKey(keys: Keys, key: number): number {
  return key < 0 ? keys.undefined : key;
}

function indexOf(table: ClaudeCodeLineTable, keys: Keys, rowOf: readonly number[], entryOfKey: Int32Array): Index {
  const n = rowOf.length;
  const parentKey = new Int32Array(n);
  const group = new Int32Array(n).fill(-1);
  const groups: number[][] = [];
  const groupOfKey = new Int32Array(table.strings.size).fill(-1);
  const callStart = new Int32Array(n + 1);
  const calls: number[] = [];
  const callOfKey = new Int32Array(table.strings.size).fill(-1);
  let callCount = 0;
  for (let i = 0; i < n; i++) {
    const row = rowOf[i] as number;
    let key = table.at(row, PARENT_UUID);
    if (key < 0) key = table.at(row, LOGICAL_PARENT_UUID);
    parentKey[i] = key < 0 ? -1 : entryOfKey[key] === -1 ? -2 : (entryOfKey[key] as number);
    callStart[i] = calls.length;
    if (table.at(row, TYPE) !== keys.assistant || table.at(row, MESSAGE) !== 1) continue;
    const id = table.at(row, MESSAGE_ID);
    if (id >= 0) {
      let number = groupOfKey[id] as number;
      if (number < 0) {
        number = groups.length;
        groupOfKey[id] = number;
        groups.push([]);
      }
      group[i] = number;
      (groups[number] as number[]).push(i);
    }
    if (table.at(row, CONTENT) !== CONTENT_BLOCKS) continue;
    for (let block = table.at(row, BLOCKS_START); block < table.at(row, BLOCKS_END); block++) {
      if (table.blockAt(block, BLOCK_TYPE) !== keys.toolUse) continue;
      const call = callKey(keys, table.blockAt(block, BLOCK_ID));
      if (callOfKey[call] === -1) callOfKey[call] = callCount++;
      calls.push(callOfKey[call] as number);
    }
  }
  callStart[n] = calls.length;
  return { table, keys, rowOf, parentKey, group, groups, callStart, calls: Int32Array.from(calls), callOfKey, callCount };
}

/** For each call number, the last of `members` (entry indices, file order) declaring it (-1: none): claudeCodeTree's `callOwner`. */
function callOwners(index: Index, members: Iterable<number>): Int32Array {
  const owner = new Int32Array(index.callCount).fill(-1);
  for (const i of members)
    for (let c = index.callStart[i] as number; c < (index.callStart[i + 1] as number); c++) owner[index.calls[c] as number] = i;
  return owner;
}

/** `absorbs` of claudeCodeTree: whether entry `i`, off the line `marks`, belongs to it. */
function absorbs(index: Index, owner: Int32Array, i: number, marks: Uint8Array): boolean {
  const { table, keys } = index;
  const row = index.rowOf[i] as number;
  if (table.at(row, MESSAGE) !== 1) return false;
  if (table.at(row, TYPE) === keys.assistant) {
    const number = index.group[i] as number;
    if (number < 0) return false;
    return (index.groups[number] as number[]).some((other) => other !== i && marks[other] === 1);
  }
  if (table.at(row, CONTENT) !== CONTENT_BLOCKS) return false;
  const start = table.at(row, BLOCKS_START);
  const end = table.at(row, BLOCKS_END);
  if (start === end) return false;
  for (let block = start; block < end; block++) {
    if (table.blockAt(block, BLOCK_TYPE) !== keys.toolResult) return false;
    const number = index.callOfKey[callKey(keys, table.blockAt(block, BLOCK_TOOL_USE_ID))] as number;
    const by = number < 0 ? -1 : (owner[number] as number);
    if (by < 0 || marks[by] !== 1) return false;
  }
  return true;
}

/**
 * `lineOfLeaf` over the entries `members` (indices in file order; `parent` of each, -1: none):
 * the leaf's ancestors, then, in file order, each member whose parent is on the line and that the
 * line absorbs (with `owner` as its call owners).
 */
function lineMarks(index: Index, members: readonly number[], parent: Int32Array, owner: Int32Array, leaf: number): Uint8Array {
  const marks = new Uint8Array(index.rowOf.length);
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
  const parent = new Int32Array(index.rowOf.length).fill(-1);
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
export function claudeCodeSkeletonChain(table: ClaudeCodeLineTable, ref: string): ClaudeCodeSkeletonChain | undefined {
  const strings = table.strings;
  const keys = table.keys();
  const titles = new Set([...CLAUDE_CODE_TITLE_TYPES].map((type) => strings.keyOf(type)));
  const refKey = strings.find(ref);
  // A subagent's own file is all sidechain: its lines are entries; a main file's sidechain lines are not.
  let treed = 0;
  let sidechain = 0;
  for (let row = 0; row < table.count; row++) {
    if (table.at(row, UUID) < 0) continue;
    treed++;
    if (table.at(row, IS_SIDECHAIN) === 1) sidechain++;
  }
  const allSidechain = treed > 0 && sidechain === treed;
  const rowOf: number[] = [];
  const entryOfKey = new Int32Array(strings.size).fill(-1);
  let distinct = true;
  let at = -1;
  for (let row = 0; row < table.count; row++) {
    const uuid = table.at(row, UUID);
    if (uuid < 0) continue;
    if (uuid === refKey && at < 0) at = row;
    if (titles.has(table.at(row, TYPE)) || (table.at(row, IS_SIDECHAIN) === 1 && !allSidechain)) continue;
    // A repeated or empty uuid: the general path takes the file.
    if (entryOfKey[uuid] !== -1 || uuid === keys.empty) distinct = false;
    entryOfKey[uuid] = rowOf.length;
    rowOf.push(row);
  }
  if (!distinct || at < 0) return undefined;
  const leaf = entryOfKey[refKey] as number;
  if (leaf < 0 || rowOf[leaf] !== at) return undefined;
  const index = indexOf(table, keys, rowOf, entryOfKey);
  // The chain as lineEndingAt picks it: the entries up to the leaf.
  const upTo = Array.from({ length: leaf + 1 }, (_, i) => i);
  const marks = lineMarks(
    index,
    upTo,
    parentsOf(index, upTo, (i) => i <= leaf, false),
    callOwners(index, rowOf.keys()),
    leaf,
  );
  const keptEntries = upTo.filter((i) => marks[i] === 1);
  // The reading of the kept lines: their own tree (every kept line is an entry of it), main line first.
  let mainLeaf = keptEntries.length - 1;
  const isMessage = (i: number): boolean => {
    const type = table.at(rowOf[i] as number, TYPE);
    return type === keys.user || type === keys.assistant;
  };
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
    kept: keptEntries.map((i) => rowOf[i] as number),
    main: keptEntries.filter((i) => mainMarks[i] === 1).map((i) => rowOf[i] as number),
  };
}
