/**
 * `claudeCodeItems`: the items the import's reader makes of one line of Claude Code entries
 * (`itemsOf` in read-claude-code.ts: one item per prompt, response, result, compaction and config
 * change, a split response's calls merged into its first line), as far as the writer's counts
 * depend on them — read from the entries' rows in the file's line table, each item an integer and
 * the responses' calls linked lists in integer arrays (`claudeCodeEventCount` counts them).
 * @module
 */
import { CLAUDE_CODE_INTERRUPTED } from './claude-code-skeleton.js';
import * as slots from './claude-code-line-table.js';
import type { ClaudeCodeKeys as Keys, ClaudeCodeLineTable } from './claude-code-line-table.js';

/**
 * The reader's items, as far as the writer's counts depend on them: `items[i]` is a kind (`PROMPT_OPENING` …
 * `CONFIG`) and its payload (`kind | payload << ITEM_BITS`: a response's number, a result's call id key).
 * Response r declares the calls `first[r]`, `next[first[r]]`, … (-1 ends), each the keys of its id
 * and name as the reader takes them (`String(undefined)` for none): a split response's later lines
 * add theirs to its list.
 */
export type ClaudeCodeItems = {
  items: number[];
  first: number[];
  last: number[];
  callId: number[];
  callName: number[];
  next: number[];
};

export const ITEM_BITS = 3;
export const ITEM_MASK = (1 << ITEM_BITS) - 1;
export const PROMPT_OPENING = 0;
export const PROMPT_INSIDE = 1;
export const RESPONSE = 2;
export const RESULT = 3;
export const COMPACTION = 4;
export const CONFIG = 5;

/** Whether block `block`, which the reader keeps as text, holds the interruption marker at its start. */
function interrupts(table: ClaudeCodeLineTable, keys: Keys, block: number): boolean {
  const type = table.blockAt(block, slots.BLOCK_TYPE);
  const text = table.blockAt(block, slots.BLOCK_TEXT);
  if (type === keys.text && text !== slots.MARK_NONE) return text === slots.MARK_INTERRUPTED;
  // Any other block is a placeholder text: `[image…]` or `[<type> block]`.
  const name = type < 0 ? 'unknown' : table.strings.string(type);
  return name !== 'image' && `[${name} block]`.startsWith(CLAUDE_CODE_INTERRUPTED);
}

/** The reader's items of the rows `entries` (each an entry of the line: a string uuid), as `itemsOf` makes them. */
export function claudeCodeItems(table: ClaudeCodeLineTable, keys: Keys, entries: readonly number[]): ClaudeCodeItems {
  const out: ClaudeCodeItems = { items: [], first: [], last: [], callId: [], callName: [], next: [] };
  const { items, first, last, callId, callName, next } = out;
  const rows = table.rows;
  const blocks = table.blocks;
  const BLOCK = slots.BLOCK;
  const callKey = (key: number): number => (key < 0 ? keys.undefined : key);
  // The response of each message id since the last reset (a prompt opening a turn, a compaction): those numbered from `since`.
  const responseOf = new Int32Array(table.strings.size).fill(-1);
  let since = 0;
  let cwd = -1;
  let model = -1;
  let pendingCompaction = false;
  for (let e = 0; e < entries.length; e++) {
    const base = (entries[e] as number) * slots.ROW;
    const entryCwd = rows[base + slots.CWD] as number;
    if (entryCwd >= 0 && entryCwd !== cwd) {
      cwd = entryCwd;
      items.push(CONFIG);
    }
    const type = rows[base + slots.TYPE] as number;
    if (type === keys.system) {
      if (rows[base + slots.SUBTYPE] === keys.compactBoundary) pendingCompaction = true;
      continue;
    }
    if (rows[base + slots.MESSAGE] !== 1) continue;
    const content = rows[base + slots.CONTENT] as number;
    const blocksStart = (rows[base + slots.BLOCKS_START] as number) * BLOCK;
    const blocksEnd = content === slots.CONTENT_BLOCKS ? (rows[base + slots.BLOCKS_END] as number) * BLOCK : blocksStart;
    if (type === keys.assistant) {
      const messageId = rows[base + slots.MESSAGE_ID] as number;
      const uuid = rows[base + slots.UUID] as number;
      const id = messageId >= 0 ? messageId : uuid >= 0 ? uuid : keys.empty;
      const entryModel = rows[base + slots.MODEL] as number;
      if (entryModel >= 0 && entryModel !== keys.synthetic && entryModel !== model) {
        model = entryModel;
        items.push(CONFIG);
      }
      let response = responseOf[id] as number;
      if (response < since) {
        response = first.length;
        responseOf[id] = response;
        first.push(-1);
        last.push(-1);
        items.push(RESPONSE | (response << ITEM_BITS));
      }
      for (let b = blocksStart; b < blocksEnd; b += BLOCK) {
        if (blocks[b + slots.BLOCK_TYPE] !== keys.toolUse) continue;
        const call = callId.length;
        callId.push(callKey(blocks[b + slots.BLOCK_ID] as number));
        callName.push(callKey(blocks[b + slots.BLOCK_NAME] as number));
        next.push(-1);
        if (last[response] === -1) first[response] = call;
        else next[last[response] as number] = call;
        last[response] = call;
      }
      continue;
    }
    if (type !== keys.user) continue;
    if (rows[base + slots.IS_COMPACT_SUMMARY] === 1 || pendingCompaction) {
      pendingCompaction = false;
      items.push(COMPACTION);
      since = first.length;
      continue;
    }
    const meta = rows[base + slots.IS_META] === 1;
    if (content === slots.MARK_PLAIN || content === slots.MARK_INTERRUPTED) {
      items.push(meta ? PROMPT_INSIDE : PROMPT_OPENING);
      if (!meta) since = first.length;
      continue;
    }
    let extra = 0;
    let hasResult = false;
    let interrupted = false;
    for (let b = blocksStart; b < blocksEnd; b += BLOCK) {
      if (blocks[b + slots.BLOCK_TYPE] === keys.toolResult) {
        hasResult = true;
        items.push(RESULT | (callKey(blocks[b + slots.BLOCK_TOOL_USE_ID] as number) << ITEM_BITS));
      } else {
        extra++;
        if (interrupts(table, keys, b / BLOCK)) interrupted = true;
      }
    }
    if (extra > 0) {
      const opensTurn = !meta && !hasResult && !interrupted;
      items.push(opensTurn ? PROMPT_OPENING : PROMPT_INSIDE);
      if (opensTurn) since = first.length;
    }
  }
  return out;
}
