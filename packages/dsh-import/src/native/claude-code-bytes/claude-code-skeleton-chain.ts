/**
 * `claudeCodeSkeletonChain`: for a cut at one entry of a Claude Code file, the lines the child keeps
 * and the main line of the import's reading of those lines — both from the file's line table
 * (`ClaudeCodeLineTable`: the lines' skeletons as rows, strings as keys), on one index of the
 * file's entries (`claudeCodeEntryIndex`: typed arrays over entry numbers). It is the tree of
 * `claudeCodeTree` and the line picking of `lineEndingAt` / `linesOfTree` (transcript-tree.ts) for
 * files whose entry uuids are distinct and not empty; for any other file, or a cut at a line that
 * is not an entry, it returns undefined and the caller takes the general path (`nativeCut`).
 * @module
 */
import type { ClaudeCodeLineTable } from './claude-code-line-table.js';
import {
  ABSORB_GROUP,
  ABSORB_MASK,
  ABSORB_RESULTS,
  claudeCodeEntryIndex,
  IS_MESSAGE,
  type ClaudeCodeEntryIndex as Index,
} from './claude-code-entry-index.js';

/** Rows of the line table: the kept lines (file order), and the main line of their reading. */
export type ClaudeCodeSkeletonChain = { kept: number[]; main: number[] };

/** For each call number, the last of `members[0 … length)` (entries, file order) declaring it (-1: none): claudeCodeTree's `callOwner`. */
function callOwners(index: Index, members: Int32Array, length: number): Int32Array {
  const { callStart, calls } = index;
  const owner = new Int32Array(index.callCount).fill(-1);
  for (let m = 0; m < length; m++) {
    const i = members[m] as number;
    for (let c = callStart[i] as number, end = callStart[i + 1] as number; c < end; c++) owner[calls[c] as number] = i;
  }
  return owner;
}

/** A line being marked: its entries, and per response how many of its entries are on it. */
type Marks = { marks: Uint8Array; groupMarks: Int32Array };

function mark(index: Index, line: Marks, i: number): void {
  line.marks[i] = 1;
  const group = index.group[i] as number;
  if (group >= 0) (line.groupMarks[group] as number)++;
}

/** `absorbs` of claudeCodeTree: whether entry `i`, off the line, belongs to it. */
function absorbs(index: Index, owner: Int32Array, i: number, line: Marks): boolean {
  const kind = (index.kind[i] as number) & ABSORB_MASK;
  // Another entry of its response is on the line (`i` is not).
  if (kind === ABSORB_GROUP) return (line.groupMarks[index.group[i] as number] as number) > 0;
  if (kind !== ABSORB_RESULTS) return false;
  const { results, callOfKey } = index;
  for (let r = index.resultStart[i] as number, end = index.resultStart[i + 1] as number; r < end; r++) {
    const number = callOfKey[results[r] as number] as number;
    const by = number < 0 ? -1 : (owner[number] as number);
    if (by < 0 || line.marks[by] !== 1) return false;
  }
  return true;
}

/**
 * `lineOfLeaf` over the entries `members[0 … length)` (file order; `parent` of each, -1: none):
 * the leaf's ancestors, then, in file order, each member whose parent is on the line and that the
 * line absorbs (with `owner` as its call owners).
 */
function lineMarks(index: Index, members: Int32Array, length: number, parent: Int32Array, owner: Int32Array, leaf: number): Uint8Array {
  const line: Marks = { marks: new Uint8Array(index.count), groupMarks: new Int32Array(index.groupCount) };
  const marks = line.marks;
  for (let node = leaf; marks[node] !== 1;) {
    mark(index, line, node);
    const up = parent[node] as number;
    if (up < 0) break;
    node = up;
  }
  for (let m = 0; m < length; m++) {
    const i = members[m] as number;
    const up = parent[i] as number;
    if (marks[i] === 1 || up < 0 || marks[up] !== 1) continue;
    if (absorbs(index, owner, i, line)) mark(index, line, i);
  }
  return marks;
}

/**
 * The parents of the entries `members[0 … length)` as claudeCodeTree links them in a tree of those
 * entries alone: `parentUuid`, else `logicalParentUuid`; a parent that is no entry links to the
 * member written just before, and so does an entry that is not a member (`isMember[key] !== 1`)
 * when `linkOutside` (the tree holds only the members), else it is none (the tree holds it, but
 * the line is cut before it). Indexed by entry; -1 for none.
 */
function parentsOf(index: Index, members: Int32Array, length: number, isMember: Uint8Array, linkOutside: boolean): Int32Array {
  const parent = new Int32Array(index.count).fill(-1);
  const parentKey = index.parentKey;
  for (let m = 0, previous = -1; m < length; m++) {
    const i = members[m] as number;
    const key = parentKey[i] as number;
    if (key !== -1) parent[i] = key >= 0 && isMember[key] === 1 ? key : key === -2 || linkOutside ? previous : -1;
    previous = i;
  }
  return parent;
}

/** The entries of `members[0 … length)` that `marks` holds, in order. */
function marked(members: Int32Array, length: number, marks: Uint8Array): Int32Array {
  const out = new Int32Array(length);
  let count = 0;
  for (let m = 0; m < length; m++) if (marks[members[m] as number] === 1) out[count++] = members[m] as number;
  return out.subarray(0, count);
}

/** The rows of the entries `entries`. */
function rowsOf(index: Index, entries: Int32Array): number[] {
  const rows = new Array<number>(entries.length);
  for (let e = 0; e < entries.length; e++) rows[e] = index.rowOf[entries[e] as number] as number;
  return rows;
}

/**
 * The chain to the entry REF names (the first line whose uuid is `ref`) and its reading's main
 * line, or undefined (see the module comment; also for a `ref` no line has).
 */
export function claudeCodeSkeletonChain(table: ClaudeCodeLineTable, ref: string): ClaudeCodeSkeletonChain | undefined {
  const index = claudeCodeEntryIndex(table, ref);
  if (index === undefined) return undefined;
  const { leaf } = index;
  // The chain as lineEndingAt picks it: the entries up to the leaf.
  const all = new Int32Array(index.count);
  for (let i = 0; i < index.count; i++) all[i] = i;
  const upToLeaf = new Uint8Array(index.count).fill(1, 0, leaf + 1);
  const marks = lineMarks(
    index,
    all,
    leaf + 1,
    parentsOf(index, all, leaf + 1, upToLeaf, false),
    callOwners(index, all, index.count),
    leaf,
  );
  const kept = marked(all, leaf + 1, marks);
  // The reading of the kept lines: their own tree (every kept line is an entry of it), main line first.
  const isMessage = (i: number): boolean => ((index.kind[i] as number) & IS_MESSAGE) !== 0;
  let mainLeaf = kept.length - 1;
  while (mainLeaf > 0 && !isMessage(kept[mainLeaf] as number)) mainLeaf--;
  if (!isMessage(kept[mainLeaf] as number)) mainLeaf = kept.length - 1;
  const mainMarks = lineMarks(
    index,
    kept,
    kept.length,
    parentsOf(index, kept, kept.length, marks, true),
    callOwners(index, kept, kept.length),
    kept[mainLeaf] as number,
  );
  return { kept: rowsOf(index, kept), main: rowsOf(index, marked(kept, kept.length, mainMarks)) };
}
