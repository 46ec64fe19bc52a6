/**
 * `scanClaudeCodeSkeleton`: a Claude Code line's skeleton (`claude-code-skeleton.ts`) read from
 * the file's bytes — the top-level keys the reader and the tree look at, the message's id, model
 * and content blocks — every other value checked to the JSON grammar and skipped without building
 * it. Which keys are read, and how, is one table per object (top level, message, content block).
 * @module
 */
import { ByteStringTable } from './byte-string-table.js';
import {
  CLAUDE_CODE_INTERRUPTED,
  markOf,
  type ClaudeCodeSkeleton,
  type SkeletonBlock,
  type SkeletonMessage,
} from './claude-code-skeleton.js';
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
const STRING = 1; // a string, else undefined
const FLAG = 2; // true for the literal `true`, else undefined
const MARK = 3; // a text's interruption mark (`markOf`), else undefined
const ID = 4; // a string; any other value declines (the reader takes it with `String(…)`)
const PRESENT = 5; // '' for a string, else undefined
const MESSAGE = 6; // the message object, else undefined
const CONTENT = 7; // a text mark, the content blocks, else undefined

/** An object's fields: their keys (numbered from 1 in slot order) and how each is read. */
type Fields = { table: KeyTable; kinds: Uint8Array };

function fields(entries: readonly (readonly [string, number])[]): Fields {
  return { table: keyTable(entries.map(([key]) => key)), kinds: Uint8Array.from(entries, ([, kind]) => kind) };
}

// Slot order is the order of the skeleton's fields.
const TOP = fields([
  ['type', STRING],
  ['uuid', STRING],
  ['parentUuid', STRING],
  ['logicalParentUuid', STRING],
  ['isSidechain', FLAG],
  ['sessionId', STRING],
  ['cwd', STRING],
  ['subtype', STRING],
  ['isMeta', FLAG],
  ['isCompactSummary', FLAG],
  ['isApiErrorMessage', FLAG],
  ['message', MESSAGE],
]);
const MESSAGE_FIELDS = fields([
  ['id', STRING],
  ['model', STRING],
  ['content', CONTENT],
]);
const BLOCK = fields([
  ['type', STRING],
  ['text', MARK],
  ['id', ID],
  ['name', ID],
  ['tool_use_id', ID],
  ['thinking', PRESENT],
  ['data', PRESENT],
]);

const MARKER = Uint8Array.from(CLAUDE_CODE_INTERRUPTED, (c) => c.charCodeAt(0));

/**
 * Scans the line `[start, end)` of `bytes` (valid UTF-8) for its skeleton. Returns undefined — and
 * the caller parses the line — for anything it does not read itself: a value of a kind the skeleton
 * does not keep where it looks for one (an id that is not a string), whitespace between tokens, or
 * text that is not JSON.
 */
export function scanClaudeCodeSkeleton(bytes: Uint8Array, start: number, end: number): ClaudeCodeSkeleton | undefined {
  return claudeCodeSkeletonScanner(bytes)(start, end);
}

/** `scanClaudeCodeSkeleton` for many lines of one file: one scanner (and one string table), reused line after line. */
export function claudeCodeSkeletonScanner(bytes: Uint8Array): (start: number, end: number) => ClaudeCodeSkeleton | undefined {
  const scanner = new SkeletonScanner(bytes);
  return (start, end) => {
    scanner.reset(end);
    try {
      return scanner.line(start) === end ? scanner.skeleton() : undefined;
    } catch (error) {
      if (error instanceof Decline) return undefined;
      throw error;
    }
  };
}

class SkeletonScanner extends JsonLineScanner {
  private readonly strings: ByteStringTable;
  private readonly top: unknown[] = new Array<unknown>(TOP.kinds.length).fill(undefined);
  private readonly message: unknown[] = new Array<unknown>(MESSAGE_FIELDS.kinds.length).fill(undefined);
  private readonly block: unknown[] = new Array<unknown>(BLOCK.kinds.length).fill(undefined);

  constructor(bytes: Uint8Array) {
    super(bytes);
    this.strings = new ByteStringTable(bytes);
  }

  /** Reads the line's object at `at`; returns the index after it. */
  line(at: number): number {
    if (this.bytes[at] !== OPEN_OBJECT) throw DECLINE;
    return this.members(at, TOP, this.top);
  }

  /** The skeleton of the line `line` read last. */
  skeleton(): ClaudeCodeSkeleton {
    const v = this.top;
    return {
      type: v[0] as string | undefined,
      uuid: v[1] as string | undefined,
      parentUuid: v[2] as string | undefined,
      logicalParentUuid: v[3] as string | undefined,
      isSidechain: v[4] as true | undefined,
      sessionId: v[5] as string | undefined,
      cwd: v[6] as string | undefined,
      subtype: v[7] as string | undefined,
      isMeta: v[8] as true | undefined,
      isCompactSummary: v[9] as true | undefined,
      isApiErrorMessage: v[10] as true | undefined,
      message: v[11] as SkeletonMessage | undefined,
    };
  }

  /** The object at `at` (an opening brace), its fields read into `values` by slot (the last of a repeated key wins). */
  private members(at: number, of: Fields, values: unknown[]): number {
    const bytes = this.bytes;
    values.fill(undefined);
    let i = at + 1;
    if (bytes[i] === CLOSE_OBJECT) return i + 1;
    for (;;) {
      const key = this.keyOf(i, of.table);
      const v = this.keyAfter;
      const after = key === 0 ? this.after(v) : this.value(v, of.kinds[key - 1] as number, values, key - 1);
      const next = this.nextMember(after);
      if (next < 0) return -next;
      i = next;
    }
  }

  /** Reads the value at `v` into `values[slot]` as `kind` says; returns the index after it. */
  private value(v: number, kind: number, values: unknown[], slot: number): number {
    const bytes = this.bytes;
    const c = bytes[v];
    if (kind === FLAG) {
      values[slot] = this.flagAt(v);
      return this.after(v);
    }
    if (c === QUOTE) {
      const after = this.stringEnd(v);
      if (kind === STRING || kind === ID) values[slot] = this.strings.get(v, after, this.escaped);
      else if (kind === PRESENT) values[slot] = '';
      else if (kind === MARK || kind === CONTENT) values[slot] = this.mark(v, after);
      else values[slot] = undefined;
      return after;
    }
    if (kind === ID) throw DECLINE;
    if (kind === MESSAGE && c === OPEN_OBJECT) {
      const message = this.message;
      const after = this.members(v, MESSAGE_FIELDS, message);
      values[slot] = { id: message[0], model: message[1], content: message[2] };
      return after;
    }
    if (kind === CONTENT && c === OPEN_ARRAY) return this.blocks(v, values, slot);
    values[slot] = undefined;
    return this.skip(v);
  }

  /** The content array at `at`: its objects read as blocks into `values[slot]`, anything else skipped. */
  private blocks(at: number, values: unknown[], slot: number): number {
    const bytes = this.bytes;
    const blocks: SkeletonBlock[] = [];
    values[slot] = blocks;
    let i = at + 1;
    if (bytes[i] === CLOSE_ARRAY) return i + 1;
    for (;;) {
      if (bytes[i] === OPEN_OBJECT) {
        const v = this.block;
        i = this.members(i, BLOCK, v);
        blocks.push({
          type: v[0] as string | undefined,
          text: v[1] as string | undefined,
          id: v[2] as string | undefined,
          name: v[3] as string | undefined,
          tool_use_id: v[4] as string | undefined,
          thinking: v[5] as string | undefined,
          data: v[6] as string | undefined,
        });
      } else i = this.after(i);
      const next = bytes[i];
      if (next === CLOSE_ARRAY) return i + 1;
      if (next !== COMMA) throw DECLINE;
      i++;
    }
  }

  /** The interruption mark of the string token `[at, after)`, as `markOf` gives it for the decoded text. */
  private mark(at: number, after: number): string {
    const bytes = this.bytes;
    for (let i = 0; i < MARKER.length; i++) {
      const position = at + 1 + i;
      if (position >= after - 1) return '';
      const c = bytes[position];
      // An escape can spell the marker's characters: decode to be sure.
      if (c === BACKSLASH) return markOf(this.decode(at, after)) as string;
      if (c !== MARKER[i]) return '';
    }
    return CLAUDE_CODE_INTERRUPTED;
  }
}
