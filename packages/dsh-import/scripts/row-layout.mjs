/**
 * The one table of the Claude Code line table's layout: a row's slots, a block's slots and the
 * values some slots hold. `build-row-layout.mjs` writes it for both sides that read it — the
 * WebAssembly scanner (`assembly/row-layout.ts`) and the TypeScript table
 * (`src/native/claude-code-bytes/row-layout.ts`); `row-layout.test.ts` fails when either differs.
 * A slot's number is its place in its list; `ROW` and `BLOCK` are the lists' lengths.
 * @module
 */

/** A row's slots, one row per line. Strings are keys (-1: undefined); flags 1 or 0; marks MARK_*; content CONTENT_*. */
export const ROW_SLOTS = [
  ['TYPE'],
  ['UUID'],
  ['PARENT_UUID'],
  ['LOGICAL_PARENT_UUID'],
  ['IS_SIDECHAIN'],
  ['SESSION_ID'],
  ['CWD'],
  ['SUBTYPE'],
  ['IS_META'],
  ['IS_COMPACT_SUMMARY'],
  ['IS_API_ERROR_MESSAGE'],
  ['MESSAGE', '1 when `message` is an object (then the next five slots say what it holds).'],
  ['MESSAGE_ID'],
  ['MODEL'],
  ['CONTENT'],
  ['BLOCKS_START', "The row's blocks: `[BLOCKS_START, BLOCKS_END)` when CONTENT is CONTENT_BLOCKS."],
  ['BLOCKS_END'],
  ['LINE_INDEX', "The line's 0-based index in the file and its bytes `[LINE_START, LINE_END)`."],
  ['LINE_START'],
  ['LINE_END'],
];

/** A content block's slots, one row per block. */
export const BLOCK_SLOTS = [
  ['BLOCK_TYPE'],
  ['BLOCK_TEXT'],
  ['BLOCK_ID'],
  ['BLOCK_NAME'],
  ['BLOCK_TOOL_USE_ID'],
  ['BLOCK_THINKING', '1 when `thinking` / `data` is a string.'],
  ['BLOCK_DATA'],
];

/** The values some slots hold. */
export const SLOT_VALUES = [
  ['MARK_NONE', -1, "A text's interruption mark: not a string, a string, a string starting with the interruption marker."],
  ['MARK_PLAIN', 0],
  ['MARK_INTERRUPTED', 1],
  ['CONTENT_NONE', -1, '`message.content`: not a string or array, a string (then CONTENT is its MARK_*), blocks.'],
  ['CONTENT_BLOCKS', 2],
];
