/**
 * `ClaudeCodeLineTable`: the skeletons (`claude-code-skeleton.ts`) of a Claude Code file's lines
 * in two integer arrays rather than objects — one row per line, one per content block, strings as
 * keys of the file's string table (`LineStrings`) — so reading 50,000 lines leaves a few arrays to
 * the collector, not 200,000 objects. A scanner writes rows straight from the bytes (the one in
 * WebAssembly in its own memory, which the table then reads in place); a line it declines is
 * parsed and its projection written (`pushSkeleton`, `writeSkeleton`); `skeletonAt` gives a row back as
 * the skeleton object (the property tests compare it with `claudeCodeSkeletonOf`).
 * @module
 */
import type { LineStrings } from './line-strings.js';
import {
  BLOCK,
  BLOCKS_END,
  BLOCKS_START,
  BLOCK_DATA,
  BLOCK_ID,
  BLOCK_NAME,
  BLOCK_TEXT,
  BLOCK_THINKING,
  BLOCK_TOOL_USE_ID,
  BLOCK_TYPE,
  CONTENT,
  CONTENT_BLOCKS,
  CONTENT_NONE,
  CWD,
  IS_API_ERROR_MESSAGE,
  IS_COMPACT_SUMMARY,
  IS_META,
  IS_SIDECHAIN,
  LINE_END,
  LINE_INDEX,
  LINE_START,
  LOGICAL_PARENT_UUID,
  MARK_INTERRUPTED,
  MARK_NONE,
  MARK_PLAIN,
  MESSAGE,
  MESSAGE_ID,
  MODEL,
  PARENT_UUID,
  ROW,
  SESSION_ID,
  SUBTYPE,
  TYPE,
  UUID,
} from './row-layout.js';
import { CLAUDE_CODE_INTERRUPTED, type ClaudeCodeSkeleton, type SkeletonBlock } from './claude-code-skeleton.js';

// The layout, generated from scripts/row-layout.mjs (the scanner reads the same table).
export * from './row-layout.js';

const FLAGS = [IS_SIDECHAIN, IS_META, IS_COMPACT_SUMMARY, IS_API_ERROR_MESSAGE, MESSAGE];
const ROW_DEFAULTS = new Int32Array(ROW).fill(-1);
for (const slot of FLAGS) ROW_DEFAULTS[slot] = 0;
const BLOCK_DEFAULTS = Int32Array.of(-1, MARK_NONE, -1, -1, -1, 0, 0);

const markOf = (mark: number): string | undefined =>
  mark === MARK_NONE ? undefined : mark === MARK_INTERRUPTED ? CLAUDE_CODE_INTERRUPTED : '';
const markFor = (text: string | undefined): number =>
  text === undefined ? MARK_NONE : text === CLAUDE_CODE_INTERRUPTED ? MARK_INTERRUPTED : MARK_PLAIN;

/** The keys of the strings the tree and the reader compare a row's strings with. */
export type ClaudeCodeKeys = {
  user: number;
  assistant: number;
  system: number;
  compactBoundary: number;
  synthetic: number;
  text: number;
  toolUse: number;
  toolResult: number;
  /** `String(undefined)`: the id the reader takes for a call without one. */
  undefined: number;
  empty: number;
};

/** The rows of one file's lines. */
export class ClaudeCodeLineTable<Strings extends LineStrings = LineStrings> {
  rows: Int32Array;
  count = 0;
  blocks: Int32Array;
  blockCount = 0;
  /** The blocks of the rows ended so far. */
  private endedBlocks = 0;

  /**
   * `rows` / `blocks`: arrays already holding `count` rows and `blockCount` blocks (the
   * WebAssembly scanner's), or sizes to make room for at first (the table grows past them).
   */
  constructor(
    readonly strings: Strings,
    rows: Int32Array | number = 1024,
    blocks: Int32Array | number = rows,
    count = 0,
    blockCount = 0,
  ) {
    this.rows = typeof rows === 'number' ? new Int32Array(ROW * Math.max(rows, 16)) : rows;
    this.blocks = typeof blocks === 'number' ? new Int32Array(BLOCK * Math.max(blocks, 16)) : blocks;
    this.count = count;
    this.blockCount = blockCount;
    this.endedBlocks = blockCount;
  }

  /** The keys of the strings the tree and the reader compare with (added to the string table if it has none). */
  keys(): ClaudeCodeKeys {
    const strings = this.strings;
    return {
      user: strings.keyOf('user'),
      assistant: strings.keyOf('assistant'),
      system: strings.keyOf('system'),
      compactBoundary: strings.keyOf('compact_boundary'),
      synthetic: strings.keyOf('<synthetic>'),
      text: strings.keyOf('text'),
      toolUse: strings.keyOf('tool_use'),
      toolResult: strings.keyOf('tool_result'),
      undefined: strings.keyOf('undefined'),
      empty: strings.keyOf(''),
    };
  }

  /** Slot `slot` of row `row`. */
  at(row: number, slot: number): number {
    return this.rows[row * ROW + slot] as number;
  }

  /** Slot `slot` of block `block`. */
  blockAt(block: number, slot: number): number {
    return this.blocks[block * BLOCK + slot] as number;
  }

  /** The string of a key slot of row `row` (undefined for -1). */
  stringAt(row: number, slot: number): string | undefined {
    const key = this.at(row, slot);
    return key < 0 ? undefined : this.strings.string(key);
  }

  /** Starts (or starts again) the row `count` for the line `[start, end)`; returns its base in `rows`. */
  beginRow(index: number, start: number, end: number): number {
    if ((this.count + 1) * ROW > this.rows.length) this.rows = grown(this.rows);
    const base = this.count * ROW;
    this.rows.set(ROW_DEFAULTS, base);
    this.rows[base + LINE_INDEX] = index;
    this.rows[base + LINE_START] = start;
    this.rows[base + LINE_END] = end;
    // Blocks written for this row before (a line started again) are dropped.
    this.blockCount = this.endedBlocks;
    return base;
  }

  /** Ends the row begun last. */
  endRow(): void {
    this.count++;
    this.endedBlocks = this.blockCount;
  }

  /** Drops the blocks written for the row begun last (its content is read again). */
  dropRowBlocks(): void {
    this.blockCount = this.endedBlocks;
  }

  /** A new block; returns its base in `blocks`. */
  beginBlock(): number {
    if ((this.blockCount + 1) * BLOCK > this.blocks.length) this.blocks = grown(this.blocks);
    const base = this.blockCount * BLOCK;
    this.blocks.set(BLOCK_DEFAULTS, base);
    this.blockCount++;
    return base;
  }

  /** Writes the row of a line read whole (`claudeCodeSkeletonOf` of its parsed object). */
  pushSkeleton(skeleton: ClaudeCodeSkeleton, index: number, start: number, end: number): void {
    this.fillRow(this.beginRow(index, start, end), skeleton);
    this.endRow();
  }

  /** Writes row `row` (one already counted, holding only its line's place) from the skeleton of its line read whole. */
  writeSkeleton(row: number, skeleton: ClaudeCodeSkeleton): void {
    const base = row * ROW;
    const place = this.rows.slice(base + LINE_INDEX, base + ROW);
    this.rows.set(ROW_DEFAULTS, base);
    this.rows.set(place, base + LINE_INDEX);
    this.fillRow(base, skeleton);
    this.endedBlocks = this.blockCount;
  }

  /** Drops the rows `drop` (ascending), moving the later rows up. */
  dropRows(drop: readonly number[]): void {
    let to = drop[0] as number;
    for (let row = to, next = 0; row < this.count; row++) {
      if (row === drop[next]) {
        next++;
        continue;
      }
      this.rows.copyWithin(to * ROW, row * ROW, (row + 1) * ROW);
      to++;
    }
    this.count = to;
  }

  /** The slots of the row at `base` from `skeleton` (its blocks appended). */
  private fillRow(base: number, skeleton: ClaudeCodeSkeleton): void {
    const rows = this.rows;
    const key = (value: string | undefined): number => (value === undefined ? -1 : this.strings.keyOf(value));
    const flag = (value: true | undefined): number => (value === true ? 1 : 0);
    rows[base + TYPE] = key(skeleton.type);
    rows[base + UUID] = key(skeleton.uuid);
    rows[base + PARENT_UUID] = key(skeleton.parentUuid);
    rows[base + LOGICAL_PARENT_UUID] = key(skeleton.logicalParentUuid);
    rows[base + IS_SIDECHAIN] = flag(skeleton.isSidechain);
    rows[base + SESSION_ID] = key(skeleton.sessionId);
    rows[base + CWD] = key(skeleton.cwd);
    rows[base + SUBTYPE] = key(skeleton.subtype);
    rows[base + IS_META] = flag(skeleton.isMeta);
    rows[base + IS_COMPACT_SUMMARY] = flag(skeleton.isCompactSummary);
    rows[base + IS_API_ERROR_MESSAGE] = flag(skeleton.isApiErrorMessage);
    const message = skeleton.message;
    if (message !== undefined) {
      rows[base + MESSAGE] = 1;
      rows[base + MESSAGE_ID] = key(message.id);
      rows[base + MODEL] = key(message.model);
      const content = message.content;
      if (Array.isArray(content)) {
        rows[base + CONTENT] = CONTENT_BLOCKS;
        rows[base + BLOCKS_START] = this.blockCount;
        for (const block of content) {
          const b = this.beginBlock();
          const blocks = this.blocks;
          blocks[b + BLOCK_TYPE] = key(block.type);
          blocks[b + BLOCK_TEXT] = markFor(block.text);
          blocks[b + BLOCK_ID] = key(block.id);
          blocks[b + BLOCK_NAME] = key(block.name);
          blocks[b + BLOCK_TOOL_USE_ID] = key(block.tool_use_id);
          blocks[b + BLOCK_THINKING] = block.thinking === undefined ? 0 : 1;
          blocks[b + BLOCK_DATA] = block.data === undefined ? 0 : 1;
        }
        rows[base + BLOCKS_END] = this.blockCount;
      } else rows[base + CONTENT] = typeof content === 'string' ? markFor(content) : CONTENT_NONE;
    }
  }

  /** Row `row` as the skeleton object. */
  skeletonAt(row: number): ClaudeCodeSkeleton {
    const s = (slot: number): string | undefined => this.stringAt(row, slot);
    const f = (slot: number): true | undefined => (this.at(row, slot) === 1 ? true : undefined);
    const content = this.at(row, CONTENT);
    const blocks: SkeletonBlock[] = [];
    if (content === CONTENT_BLOCKS)
      for (let block = this.at(row, BLOCKS_START); block < this.at(row, BLOCKS_END); block++) {
        const b = (slot: number): string | undefined => {
          const key = this.blockAt(block, slot);
          return key < 0 ? undefined : this.strings.string(key);
        };
        blocks.push({
          type: b(BLOCK_TYPE),
          text: markOf(this.blockAt(block, BLOCK_TEXT)),
          id: b(BLOCK_ID),
          name: b(BLOCK_NAME),
          tool_use_id: b(BLOCK_TOOL_USE_ID),
          thinking: this.blockAt(block, BLOCK_THINKING) === 1 ? '' : undefined,
          data: this.blockAt(block, BLOCK_DATA) === 1 ? '' : undefined,
        });
      }
    return {
      type: s(TYPE),
      uuid: s(UUID),
      parentUuid: s(PARENT_UUID),
      logicalParentUuid: s(LOGICAL_PARENT_UUID),
      isSidechain: f(IS_SIDECHAIN),
      sessionId: s(SESSION_ID),
      cwd: s(CWD),
      subtype: s(SUBTYPE),
      isMeta: f(IS_META),
      isCompactSummary: f(IS_COMPACT_SUMMARY),
      isApiErrorMessage: f(IS_API_ERROR_MESSAGE),
      message:
        this.at(row, MESSAGE) === 1
          ? { id: s(MESSAGE_ID), model: s(MODEL), content: content === CONTENT_BLOCKS ? blocks : markOf(content) }
          : undefined,
    };
  }
}

function grown(array: Int32Array): Int32Array {
  const next = new Int32Array(array.length * 2);
  next.set(array);
  return next;
}
