/**
 * `claudeCodeEntryIndex`: the entries of a Claude Code file's line table (`ClaudeCodeLineTable`) as
 * `claudeCodeTree` takes them — lines with a uuid, titles left out, sidechain lines left out unless
 * every line is one (a subagent's own file) — numbered in file order, with all the tree links and
 * absorbs by: each entry's parent, response (message id), declared calls and answered calls, as
 * typed arrays over entry numbers, read in one pass over the rows (the table is megabytes: each pass
 * over it costs). Undefined for a file whose entry uuids repeat or are empty, an entry written
 * before its parent, or a REF that is no entry (the caller takes the general path).
 * @module
 */
import { CLAUDE_CODE_TITLE_TYPES } from '../../claude-code/claude-code-line-types.js';
import {
  BLOCK,
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
  ROW,
  TYPE,
  UUID,
  type ClaudeCodeKeys,
  type ClaudeCodeLineTable,
} from './claude-code-line-table.js';

/** What a line may absorb an entry by (`kind[i]`, with `IS_MESSAGE`): nothing, its response, its results. */
export const ABSORB_NONE = 0;
/** An assistant message of a response (`group[i]` ≥ 0): absorbed when another entry of the response is on the line. */
export const ABSORB_GROUP = 1;
/** A message holding only tool results (`results`): absorbed when each answers a call an entry on the line owns. */
export const ABSORB_RESULTS = 2;
export const ABSORB_MASK = 3;
/** A user or assistant line (the main leaf is the last kept one). */
export const IS_MESSAGE = 4;

/**
 * The file's entries `0 … count - 1` (file order): `rowOf[i]` entry i's row, `parentKey[i]` the
 * entry its parent key names (-1: no key, -2: a key no entry has), `kind[i]` its `ABSORB_*` and
 * `IS_MESSAGE` bits, `group[i]` its response number (-1: none; `groupCount` responses), its
 * declared calls `calls[callStart[i] … callStart[i + 1])` (call numbers, `callCount` of them) and
 * the call ids its results answer `results[resultStart[i] … resultStart[i + 1])` (keys; `callOfKey`
 * the number of a call id's key, -1 for a call no entry declares).
 */
export type ClaudeCodeEntryIndex = {
  count: number;
  /** The entry REF names. */
  leaf: number;
  rowOf: Int32Array;
  parentKey: Int32Array;
  kind: Uint8Array;
  group: Int32Array;
  groupCount: number;
  callStart: Int32Array;
  calls: Int32Array;
  callCount: number;
  resultStart: Int32Array;
  results: Int32Array;
  callOfKey: Int32Array;
};

/** The key of a call id slot's value as the reader takes it (`String(undefined)` for none). */
export function callKey(keys: ClaudeCodeKeys, key: number): number {
  return key < 0 ? keys.undefined : key;
}

/** The arrays one pass fills, sized once (entries ≤ rows with a uuid, calls and results ≤ blocks). */
function emptyIndex(table: ClaudeCodeLineTable, size: number): ClaudeCodeEntryIndex & { parentUuid: Int32Array; entryOfKey: Int32Array } {
  const rows = table.count;
  return {
    count: 0,
    leaf: -1,
    rowOf: new Int32Array(rows),
    parentKey: new Int32Array(rows),
    parentUuid: new Int32Array(rows),
    kind: new Uint8Array(rows),
    group: new Int32Array(rows).fill(-1),
    groupCount: 0,
    callStart: new Int32Array(rows + 1),
    calls: new Int32Array(table.blockCount),
    callCount: 0,
    resultStart: new Int32Array(rows + 1),
    results: new Int32Array(table.blockCount),
    callOfKey: new Int32Array(size).fill(-1),
    entryOfKey: new Int32Array(size).fill(-1),
  };
}

/**
 * One pass over the rows: the entries (sidechain lines too when `sidechain`) into a new index, the
 * first row whose uuid is `refKey`, whether every line with a uuid is sidechain; `index` undefined
 * when an entry's uuid repeats or is empty.
 */
function indexRows(
  table: ClaudeCodeLineTable,
  keys: ClaudeCodeKeys,
  isTitle: Uint8Array,
  refKey: number,
  sidechain: boolean,
): { index: ClaudeCodeEntryIndex | undefined; at: number; allSidechain: boolean } {
  const index = emptyIndex(table, isTitle.length);
  const { rowOf, parentUuid, kind, group, callStart, calls, resultStart, results, callOfKey, entryOfKey } = index;
  const groupOfKey = new Int32Array(isTitle.length).fill(-1);
  const rows = table.rows;
  const blocks = table.blocks;
  let treed = 0;
  let sidechains = 0;
  let at = -1;
  let n = 0;
  let callEnd = 0;
  let resultEnd = 0;
  let distinct = true;
  for (let row = 0, base = 0; row < table.count; row++, base += ROW) {
    const uuid = rows[base + UUID] as number;
    if (uuid < 0) continue;
    treed++;
    const side = rows[base + IS_SIDECHAIN] === 1;
    if (side) sidechains++;
    if (uuid === refKey && at < 0) at = row;
    const type = rows[base + TYPE] as number;
    if ((type >= 0 && isTitle[type] === 1) || (side && !sidechain) || !distinct) continue;
    if (entryOfKey[uuid] !== -1 || uuid === keys.empty) distinct = false;
    const i = n++;
    entryOfKey[uuid] = i;
    rowOf[i] = row;
    const parent = rows[base + PARENT_UUID] as number;
    parentUuid[i] = parent >= 0 ? parent : (rows[base + LOGICAL_PARENT_UUID] as number);
    callStart[i] = callEnd;
    resultStart[i] = resultEnd;
    const assistant = type === keys.assistant;
    if (assistant || type === keys.user) kind[i] = IS_MESSAGE;
    if (rows[base + MESSAGE] !== 1) continue;
    const blocksOf = rows[base + CONTENT] === CONTENT_BLOCKS;
    const start = blocksOf ? (rows[base + BLOCKS_START] as number) * BLOCK : 0;
    const end = blocksOf ? (rows[base + BLOCKS_END] as number) * BLOCK : 0;
    if (assistant) {
      const id = rows[base + MESSAGE_ID] as number;
      if (id >= 0) {
        if (groupOfKey[id] === -1) groupOfKey[id] = index.groupCount++;
        group[i] = groupOfKey[id] as number;
        kind[i] = (kind[i] as number) | ABSORB_GROUP;
      }
      for (let b = start; b < end; b += BLOCK) {
        if (blocks[b + BLOCK_TYPE] !== keys.toolUse) continue;
        const call = callKey(keys, blocks[b + BLOCK_ID] as number);
        if (callOfKey[call] === -1) callOfKey[call] = index.callCount++;
        calls[callEnd++] = callOfKey[call] as number;
      }
      continue;
    }
    let b = start;
    while (b < end && blocks[b + BLOCK_TYPE] === keys.toolResult) b += BLOCK;
    if (start === end || b < end) continue;
    kind[i] = (kind[i] as number) | ABSORB_RESULTS;
    for (b = start; b < end; b += BLOCK) results[resultEnd++] = callKey(keys, blocks[b + BLOCK_TOOL_USE_ID] as number);
  }
  callStart[n] = callEnd;
  resultStart[n] = resultEnd;
  index.count = n;
  for (let i = 0; i < n; i++) {
    const key = parentUuid[i] as number;
    index.parentKey[i] = key < 0 ? -1 : entryOfKey[key] === -1 ? -2 : (entryOfKey[key] as number);
  }
  index.leaf = refKey < 0 ? -1 : (entryOfKey[refKey] as number);
  return { index: distinct ? index : undefined, at, allSidechain: treed > 0 && sidechains === treed };
}

/** The index of `table`'s entries for a cut at the first line whose uuid is `ref` (see the module comment). */
export function claudeCodeEntryIndex(table: ClaudeCodeLineTable, ref: string): ClaudeCodeEntryIndex | undefined {
  const strings = table.strings;
  const keys = table.keys();
  const titleKeys = [...CLAUDE_CODE_TITLE_TYPES].map((type) => strings.keyOf(type));
  // Every key the index compares with is made: arrays over keys are sized once.
  const isTitle = new Uint8Array(strings.size);
  for (const key of titleKeys) isTitle[key] = 1;
  const refKey = strings.find(ref);
  let read = indexRows(table, keys, isTitle, refKey, false);
  // A subagent's own file is all sidechain: its lines are entries; a main file's sidechain lines are not.
  if (read.allSidechain) read = indexRows(table, keys, isTitle, refKey, true);
  const { index, at } = read;
  if (index === undefined || at < 0 || index.leaf < 0 || index.rowOf[index.leaf] !== at) return undefined;
  // A line written before the line it follows: the chain is not in file order (the general path orders it).
  for (let i = 0; i < index.count; i++) if ((index.parentKey[i] as number) > i) return undefined;
  return index;
}
