/**
 * `ClaudeCodeLineScanner`: a Claude Code line's skeleton (`claude-code-skeleton.ts`) read from the
 * file's bytes into a row of the file's `ClaudeCodeLineTable` — the top-level keys the reader and
 * the tree look at, the message's id, model and content blocks — every other value checked to the
 * JSON grammar and skipped without building it. Which keys are read, how, and into which slot is
 * one table per object (top level, message, content block).
 * @module
 */
import { CLAUDE_CODE_INTERRUPTED, markOf, type ClaudeCodeSkeleton } from './claude-code-skeleton.js';
import * as slots from './claude-code-line-table.js';
import { ClaudeCodeLineTable } from './claude-code-line-table.js';
import { ByteStringTable } from './byte-string-table.js';
import {
  BACKSLASH,
  CLOSE_ARRAY,
  CLOSE_OBJECT,
  COMMA,
  DECLINE,
  Decline,
  JsonLineScanner,
  keyTable,
  OPEN_ARRAY,
  OPEN_OBJECT,
  QUOTE,
  type KeyTable,
} from './json-line-scanner.js';

/** How a field's value is read. */
const STRING = 1; // a string's key, else -1
const FLAG = 2; // 1 for the literal `true`, else 0
const MARK = 3; // a text's interruption mark, else MARK_NONE
const ID = 4; // a string's key; any other value declines (the reader takes it with `String(…)`)
const PRESENT = 5; // 1 for a string, else 0
const MESSAGE = 6; // the message object's fields, into the row's message slots
const CONTENT = 7; // a text's mark, or the content blocks, else CONTENT_NONE

/**
 * An object's fields: their keys (numbered from 1), how each is read and into which slot; and for a
 * string, which *recent token* it is first compared with (`recall`) and which it becomes (`store`),
 * -1 for none — most lines repeat the last line's type, session id, cwd and model, and name the last
 * line's uuid as their parent, so most strings are found without a look-up in the string table.
 */
type Fields = { table: KeyTable; kinds: Uint8Array; slots: Uint8Array; recall: Int8Array; store: Int8Array };

// The recent tokens.
const R_TYPE = 0;
const R_UUID = 1;
const R_SESSION = 2;
const R_CWD = 3;
const R_SUBTYPE = 4;
const R_MESSAGE = 5;
const R_MODEL = 6;
const R_BLOCK_TYPE = 7;
const R_NAME = 8;
const RECENT = 9;

function fields(entries: readonly (readonly [string, number, number, number?, number?])[]): Fields {
  return {
    table: keyTable(entries.map(([key]) => key)),
    kinds: Uint8Array.from(entries, ([, kind]) => kind),
    slots: Uint8Array.from(entries, ([, , slot]) => slot),
    recall: Int8Array.from(entries, ([, , , recall = -1]) => recall),
    store: Int8Array.from(entries, ([, , , recall = -1, store = recall]) => store),
  };
}

const TOP = fields([
  ['type', STRING, slots.TYPE, R_TYPE],
  ['uuid', STRING, slots.UUID, -1, R_UUID],
  ['parentUuid', STRING, slots.PARENT_UUID, R_UUID, -1],
  ['logicalParentUuid', STRING, slots.LOGICAL_PARENT_UUID, R_UUID, -1],
  ['isSidechain', FLAG, slots.IS_SIDECHAIN],
  ['sessionId', STRING, slots.SESSION_ID, R_SESSION],
  ['cwd', STRING, slots.CWD, R_CWD],
  ['subtype', STRING, slots.SUBTYPE, R_SUBTYPE],
  ['isMeta', FLAG, slots.IS_META],
  ['isCompactSummary', FLAG, slots.IS_COMPACT_SUMMARY],
  ['isApiErrorMessage', FLAG, slots.IS_API_ERROR_MESSAGE],
  ['message', MESSAGE, slots.MESSAGE],
]);
const MESSAGE_FIELDS = fields([
  ['id', STRING, slots.MESSAGE_ID, R_MESSAGE],
  ['model', STRING, slots.MODEL, R_MODEL],
  ['content', CONTENT, slots.CONTENT],
]);
const BLOCK = fields([
  ['type', STRING, slots.BLOCK_TYPE, R_BLOCK_TYPE],
  ['text', MARK, slots.BLOCK_TEXT],
  ['id', ID, slots.BLOCK_ID],
  ['name', ID, slots.BLOCK_NAME, R_NAME],
  ['tool_use_id', ID, slots.BLOCK_TOOL_USE_ID],
  ['thinking', PRESENT, slots.BLOCK_THINKING],
  ['data', PRESENT, slots.BLOCK_DATA],
]);

const MARKER = Uint8Array.from(CLAUDE_CODE_INTERRUPTED, (c) => c.charCodeAt(0));

/**
 * Scans the line `[start, end)` of `bytes` (valid UTF-8) for its skeleton. Returns undefined — and
 * the caller parses the line — for anything the scanner does not read itself: a value of a kind the
 * skeleton does not keep where it looks for one (an id that is not a string), whitespace between
 * tokens, or text that is not JSON.
 */
export function scanClaudeCodeSkeleton(bytes: Uint8Array, start: number, end: number): ClaudeCodeSkeleton | undefined {
  const table = new ClaudeCodeLineTable(new ByteStringTable(bytes));
  return new ClaudeCodeLineScanner(table, bytes).line(0, start, end) ? table.skeletonAt(0) : undefined;
}

/** Reads lines of one file into rows of its table, line after line. */
export class ClaudeCodeLineScanner extends JsonLineScanner {
  /** The base (in `table.rows`) of the row being read. */
  private base = 0;
  /** The recent tokens: where each starts, its length (-1: none to compare with) and key. */
  private readonly recentStart = new Int32Array(RECENT);
  private readonly recentLength = new Int32Array(RECENT).fill(-1);
  private readonly recentKey = new Int32Array(RECENT);

  /** Records where `"sessionId"` ends a key (`watched`): the child's bytes replace the session id there. */
  constructor(
    private readonly table: ClaudeCodeLineTable<ByteStringTable>,
    bytes: Uint8Array,
  ) {
    super(bytes, '"sessionId"');
  }

  /**
   * Reads the line `[start, end)` (0-based `index` in the file) into the table's next row; false —
   * and the row is left open for the caller to write again — when the scanner declines the line.
   */
  line(index: number, start: number, end: number): boolean {
    this.reset(end);
    this.base = this.table.beginRow(index, start, end);
    const watched = this.watched.length;
    let read: boolean;
    try {
      read = this.bytes[start] === OPEN_OBJECT && this.members(start, TOP, this.table.rows, this.base) === end;
    } catch (error) {
      if (!(error instanceof Decline)) throw error;
      read = false;
    }
    if (!read) {
      // What a declined line's keys held is found again by whoever reads it.
      this.watched.length = watched;
      return false;
    }
    this.table.endRow();
    return true;
  }

  /** The object at `at` (an opening brace), its fields read into `array` at `base` + their slots (the last of a repeated key wins). */
  private members(at: number, of: Fields, array: Int32Array, base: number): number {
    const bytes = this.bytes;
    let i = at + 1;
    if (bytes[i] === CLOSE_OBJECT) return i + 1;
    for (;;) {
      const key = this.keyOf(i, of.table);
      const v = this.keyAfter;
      const after = key === 0 ? this.after(v) : this.value(v, of, key - 1, array, base);
      const next = this.nextMember(after);
      if (next < 0) return -next;
      i = next;
    }
  }

  /** Reads the value at `v` of field `field` of `of` into its slot of `array` at `base`; returns the index after it. */
  private value(v: number, of: Fields, field: number, array: Int32Array, base: number): number {
    const kind = of.kinds[field] as number;
    const index = base + (of.slots[field] as number);
    const c = this.bytes[v];
    if (kind === FLAG) {
      array[index] = this.flagAt(v) === true ? 1 : 0;
      return this.after(v);
    }
    if (kind === MESSAGE) return this.message(v);
    if (kind === CONTENT) this.table.dropRowBlocks();
    if (c === QUOTE) {
      const after = this.stringEnd(v);
      if (kind === STRING || kind === ID) array[index] = this.key(v, after, of.recall[field] as number, of.store[field] as number);
      else if (kind === PRESENT) array[index] = 1;
      else array[index] = this.mark(v, after);
      return after;
    }
    if (kind === ID) throw DECLINE;
    if (kind === CONTENT && c === OPEN_ARRAY) return this.blocks(v);
    array[index] = kind === PRESENT ? 0 : -1;
    return this.skip(v);
  }

  /** The key of the string token `[at, after)`: the recent token `recall`'s when the bytes are the same, else the table's. */
  private key(at: number, after: number, recall: number, store: number): number {
    const length = after - at;
    if (this.escaped) {
      if (store >= 0) this.recentLength[store] = -1;
      return this.table.strings.token(at, after, true);
    }
    let key = -1;
    if (recall >= 0 && this.recentLength[recall] === length) {
      const bytes = this.bytes;
      const from = (this.recentStart[recall] as number) - at;
      // From the end: ids that differ, differ there.
      let i = after - 1;
      while (i > at && bytes[i] === bytes[i + from]) i--;
      if (i === at) key = this.recentKey[recall] as number;
    }
    if (key < 0) key = this.table.strings.token(at, after, false);
    if (store >= 0) {
      this.recentStart[store] = at;
      this.recentLength[store] = length;
      this.recentKey[store] = key;
    }
    return key;
  }

  /** The `message` value at `v`: an object's fields into the row's message slots (all unset for any other value). */
  private message(v: number): number {
    const rows = this.table.rows;
    const base = this.base;
    this.table.dropRowBlocks();
    for (let slot = slots.MESSAGE_ID; slot <= slots.BLOCKS_END; slot++) rows[base + slot] = -1;
    rows[base + slots.MESSAGE] = this.bytes[v] === OPEN_OBJECT ? 1 : 0;
    return this.bytes[v] === OPEN_OBJECT ? this.members(v, MESSAGE_FIELDS, rows, base) : this.skip(v);
  }

  /** The content array at `at`: its objects read as the row's blocks, anything else skipped. */
  private blocks(at: number): number {
    const bytes = this.bytes;
    const table = this.table;
    const rows = table.rows;
    const base = this.base;
    rows[base + slots.CONTENT] = slots.CONTENT_BLOCKS;
    rows[base + slots.BLOCKS_START] = table.blockCount;
    let i = at + 1;
    if (bytes[i] !== CLOSE_ARRAY)
      for (;;) {
        if (bytes[i] === OPEN_OBJECT) {
          const block = table.beginBlock();
          i = this.members(i, BLOCK, table.blocks, block);
        } else i = this.after(i);
        const next = bytes[i];
        if (next === CLOSE_ARRAY) break;
        if (next !== COMMA) throw DECLINE;
        i++;
      }
    rows[base + slots.BLOCKS_END] = table.blockCount;
    return i + 1;
  }

  /** The interruption mark of the string token `[at, after)`, as `markOf` gives it for the decoded text. */
  private mark(at: number, after: number): number {
    const bytes = this.bytes;
    for (let i = 0; i < MARKER.length; i++) {
      const position = at + 1 + i;
      if (position >= after - 1) return slots.MARK_PLAIN;
      const c = bytes[position];
      // An escape can spell the marker's characters: decode to be sure.
      if (c === BACKSLASH) return markOf(this.decode(at, after)) === '' ? slots.MARK_PLAIN : slots.MARK_INTERRUPTED;
      if (c !== MARKER[i]) return slots.MARK_PLAIN;
    }
    return slots.MARK_INTERRUPTED;
  }
}
