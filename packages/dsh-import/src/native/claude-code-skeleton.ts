/**
 * The few fields of a Claude Code line that decide its place in the entry tree and the count and
 * shape of the events `dsh import` reads from it — a line's *skeleton*. The native fork of a file
 * reads every line through it instead of `JSON.parse`: `scanClaudeCodeSkeleton` finds those
 * fields in the line's bytes and skips every other value without building it, and
 * `claudeCodeSkeletonOf` projects a parsed line onto the same shape (the reference, and the
 * fallback for a line the scanner declines). Texts are kept only as far as the reader looks at
 * them: whether they start with Claude Code's interruption marker.
 * @module
 */

/** What Claude Code writes at the start of a prompt that interrupted a turn (the reader's test). */
export const CLAUDE_CODE_INTERRUPTED = '[Request interrupted by user';

/** One content block: its type, the ids and name the reader compares, texts as marks. */
export type SkeletonBlock = {
  type: string | undefined;
  /** `CLAUDE_CODE_INTERRUPTED` when the text starts with it, else '' (undefined: not a string). */
  text: string | undefined;
  /** `String(id)` as the reader takes it (undefined when absent). */
  id: string | undefined;
  name: string | undefined;
  tool_use_id: string | undefined;
  /** '' when a string (the reader only tests that it is one). */
  thinking: string | undefined;
  data: string | undefined;
};

/** The `message` object: ids, model and content (a text mark, blocks, or neither). */
export type SkeletonMessage = { id: string | undefined; model: string | undefined; content: string | SkeletonBlock[] | undefined };

/** A line's skeleton: what the Claude Code reader and tree read from a line, nothing else. */
export type ClaudeCodeSkeleton = {
  type: string | undefined;
  uuid: string | undefined;
  parentUuid: string | undefined;
  logicalParentUuid: string | undefined;
  isSidechain: true | undefined;
  sessionId: string | undefined;
  cwd: string | undefined;
  subtype: string | undefined;
  isMeta: true | undefined;
  isCompactSummary: true | undefined;
  isApiErrorMessage: true | undefined;
  message: SkeletonMessage | undefined;
};

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const flag = (value: unknown): true | undefined => (value === true ? true : undefined);
const mark = (value: unknown): string | undefined => (typeof value === 'string' ? (value.startsWith(CLAUDE_CODE_INTERRUPTED) ? CLAUDE_CODE_INTERRUPTED : '') : undefined);
// eslint-disable-next-line @typescript-eslint/no-base-to-string -- `String(…)` exactly as the reader takes an id, objects included
const stringOf = (value: unknown): string | undefined => (value === undefined ? undefined : String(value));
const present = (value: unknown): string | undefined => (typeof value === 'string' ? '' : undefined);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function emptySkeleton(): ClaudeCodeSkeleton {
  return {
    type: undefined,
    uuid: undefined,
    parentUuid: undefined,
    logicalParentUuid: undefined,
    isSidechain: undefined,
    sessionId: undefined,
    cwd: undefined,
    subtype: undefined,
    isMeta: undefined,
    isCompactSummary: undefined,
    isApiErrorMessage: undefined,
    message: undefined,
  };
}

function emptyBlock(): SkeletonBlock {
  return { type: undefined, text: undefined, id: undefined, name: undefined, tool_use_id: undefined, thinking: undefined, data: undefined };
}

/** The skeleton of a parsed line (the reference reading). */
export function claudeCodeSkeletonOf(value: Record<string, unknown>): ClaudeCodeSkeleton {
  const out = emptySkeleton();
  out.type = str(value.type);
  out.uuid = str(value.uuid);
  out.parentUuid = str(value.parentUuid);
  out.logicalParentUuid = str(value.logicalParentUuid);
  out.isSidechain = flag(value.isSidechain);
  out.sessionId = str(value.sessionId);
  out.cwd = str(value.cwd);
  out.subtype = str(value.subtype);
  out.isMeta = flag(value.isMeta);
  out.isCompactSummary = flag(value.isCompactSummary);
  out.isApiErrorMessage = flag(value.isApiErrorMessage);
  const message = value.message;
  if (isRecord(message)) {
    const content = message.content;
    out.message = {
      id: str(message.id),
      model: str(message.model),
      content: typeof content === 'string' ? mark(content) : Array.isArray(content) ? (content as unknown[]).filter(isRecord).map(blockOf) : undefined,
    };
  }
  return out;
}

function blockOf(block: Record<string, unknown>): SkeletonBlock {
  const out = emptyBlock();
  out.type = str(block.type);
  out.text = mark(block.text);
  out.id = stringOf(block.id);
  out.name = stringOf(block.name);
  out.tool_use_id = stringOf(block.tool_use_id);
  out.thinking = present(block.thinking);
  out.data = present(block.data);
  return out;
}

/** Decodes one JSON string token `[start, end)` of the line (quotes included) exactly as `JSON.parse` does. */
export type DecodeString = (start: number, end: number) => string;

/** Why the scanner declines a line: the caller reads it with `JSON.parse` instead. */
class Decline extends Error {}
const DECLINE = new Decline();

const QUOTE = 34;
const BACKSLASH = 92;
const COLON = 58;
const COMMA = 44;
const OPEN_OBJECT = 123;
const CLOSE_OBJECT = 125;
const OPEN_ARRAY = 91;
const CLOSE_ARRAY = 93;

// The keys read, as small numbers (0: any other key).
/** Keys by length: for each length, the keys of that length and their numbers (1-based). */
type KeyTable = { keys: readonly string[]; byLength: readonly (readonly [string, number][] | undefined)[] };

function keyTable(keys: readonly string[]): KeyTable {
  const byLength: [string, number][][] = [];
  keys.forEach((key, index) => (byLength[key.length] ??= []).push([key, index + 1]));
  return { keys, byLength };
}

const TOP_KEYS = keyTable(['type', 'uuid', 'parentUuid', 'logicalParentUuid', 'isSidechain', 'sessionId', 'cwd', 'subtype', 'isMeta', 'isCompactSummary', 'isApiErrorMessage', 'message']);
const MESSAGE_KEYS = keyTable(['id', 'model', 'content']);
const BLOCK_KEYS = keyTable(['type', 'text', 'id', 'name', 'tool_use_id', 'thinking', 'data']);

/**
 * Scans one line for its skeleton: `src` holds the file one character per byte (latin1), the line
 * is `[start, end)`. Returns undefined — and the caller parses the line — for anything it does not
 * read itself: a value of a kind the skeleton does not keep where it looks for one (an id that is
 * not a string), whitespace between tokens, or text that is not JSON. String contents are not
 * checked here (the caller has ruled out raw control characters and unknown escapes in the line);
 * everything outside strings is checked to the JSON grammar.
 */
export function scanClaudeCodeSkeleton(src: string, start: number, end: number, decode: DecodeString): ClaudeCodeSkeleton | undefined {
  return claudeCodeSkeletonScanner(src, decode)(start, end);
}

/** `scanClaudeCodeSkeleton` for many lines of one `src`: one scanner, reused line after line. */
export function claudeCodeSkeletonScanner(src: string, decode: DecodeString): (start: number, end: number) => ClaudeCodeSkeleton | undefined {
  const scanner = new SkeletonScanner(src, decode);
  return (start, end) => {
    scanner.reset(end);
    try {
      const skeleton = emptySkeleton();
      return scanner.top(start, skeleton) === end ? skeleton : undefined;
    } catch (error) {
      if (error instanceof Decline) return undefined;
      throw error;
    }
  };
}

class SkeletonScanner {
  /** Open containers while skipping a value: true for an object. */
  private readonly stack: boolean[] = [];
  /** Where the line ends. */
  private end = 0;
  /** The first backslash at or after `backslashFrom` (Infinity: none in the rest of `src`). */
  private backslash = -1;
  private backslashFrom = 0;

  constructor(
    private readonly src: string,
    private readonly decode: DecodeString,
  ) {}

  reset(end: number): void {
    this.end = end;
  }

  /**
   * Whether `[from, to)` holds a backslash. The next backslash is looked up once and kept while the
   * positions asked about move forward (as they do, key after key and line after line).
   */
  hasBackslash(from: number, to: number): boolean {
    if (this.backslash < from || from < this.backslashFrom) {
      const found = this.src.indexOf('\\', from);
      this.backslash = found < 0 ? Number.POSITIVE_INFINITY : found;
      this.backslashFrom = from;
    }
    return this.backslash < to;
  }

  /** The index after the string token opening at `at` (which must be a quote). */
  stringEnd(at: number): number {
    const src = this.src;
    if (src.charCodeAt(at) !== QUOTE) throw DECLINE;
    for (let from = at + 1; ; ) {
      const quote = src.indexOf('"', from);
      if (quote < 0 || quote >= this.end) throw DECLINE;
      let slash = quote - 1;
      while (src.charCodeAt(slash) === BACKSLASH) slash--;
      if ((quote - 1 - slash) % 2 === 0) return quote + 1;
      from = quote + 1;
    }
  }

  /** The string token `[at, after)` decoded: its raw text when it holds no escape and no byte past ASCII. */
  text(at: number, after: number): string {
    const src = this.src;
    for (let i = at + 1; i < after - 1; i++) {
      const c = src.charCodeAt(i);
      if (c === BACKSLASH || c > 127) return this.decode(at, after);
    }
    return src.slice(at + 1, after - 1);
  }

  /** The interruption mark of the string token `[at, after)`, as `mark` gives it for the decoded text. */
  mark(at: number, after: number): string {
    const src = this.src;
    const length = CLAUDE_CODE_INTERRUPTED.length;
    for (let i = 0; i < length; i++) {
      const position = at + 1 + i;
      if (position >= after - 1) return '';
      const c = src.charCodeAt(position);
      // An escape can spell the marker's characters: decode to be sure.
      if (c === BACKSLASH) return mark(this.decode(at, after)) as string;
      if (c !== CLAUDE_CODE_INTERRUPTED.charCodeAt(i)) return '';
    }
    return CLAUDE_CODE_INTERRUPTED;
  }

  /** Which key of `table` the key token `[at, after)` is (its number), 0 for another key. */
  keyOf(at: number, after: number, table: KeyTable): number {
    if (this.hasBackslash(at + 1, after - 1)) return table.keys.indexOf(this.decode(at, after)) + 1;
    const candidates = table.byLength[after - at - 2];
    if (candidates === undefined) return 0;
    for (const [key, number] of candidates) if (this.src.startsWith(key, at + 1)) return number;
    return 0;
  }

  /** A key token and its colon at `at`: returns the key token's end; the value starts one after. */
  keyEnd(at: number): number {
    const after = this.stringEnd(at);
    if (this.src.charCodeAt(after) !== COLON) throw DECLINE;
    return after;
  }

  /** After a member's value at `at`: the next member's start, or -(index after the object) at its end. */
  nextMember(at: number): number {
    const c = this.src.charCodeAt(at);
    if (c === CLOSE_OBJECT) return -(at + 1);
    if (c !== COMMA) throw DECLINE;
    return at + 1;
  }

  /** Skips any JSON value at `at`, checked to the grammar outside strings; returns the index after it. */
  skip(at: number): number {
    const src = this.src;
    const stack = this.stack;
    stack.length = 0;
    let i = at;
    for (;;) {
      // At the start of a value.
      const c = src.charCodeAt(i);
      if (c === OPEN_OBJECT) {
        i++;
        if (src.charCodeAt(i) !== CLOSE_OBJECT) {
          stack.push(true);
          i = this.keyEnd(i) + 1;
          continue;
        }
        i++;
      } else if (c === OPEN_ARRAY) {
        i++;
        if (src.charCodeAt(i) !== CLOSE_ARRAY) {
          stack.push(false);
          continue;
        }
        i++;
      } else i = this.scalar(i);
      // After a value: close what ends here, then on to the next value.
      for (;;) {
        if (stack.length === 0) return i;
        const next = src.charCodeAt(i);
        const inObject = stack[stack.length - 1] as boolean;
        if (next === COMMA) {
          i = inObject ? this.keyEnd(i + 1) + 1 : i + 1;
          break;
        }
        if (next !== (inObject ? CLOSE_OBJECT : CLOSE_ARRAY)) throw DECLINE;
        stack.pop();
        i++;
      }
    }
  }

  /** A string, literal or number at `at`; returns the index after it. */
  scalar(at: number): number {
    const src = this.src;
    const c = src.charCodeAt(at);
    if (c === QUOTE) return this.stringEnd(at);
    if (c === 116) return this.literal(at, 'true');
    if (c === 102) return this.literal(at, 'false');
    if (c === 110) return this.literal(at, 'null');
    return this.number(at);
  }

  literal(at: number, word: string): number {
    if (!this.src.startsWith(word, at)) throw DECLINE;
    return at + word.length;
  }

  /** A JSON number: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`. */
  number(at: number): number {
    const src = this.src;
    let i = at;
    if (src.charCodeAt(i) === 45) i++;
    if (src.charCodeAt(i) === 48) i++;
    else i = this.digits(i);
    if (src.charCodeAt(i) === 46) i = this.digits(i + 1);
    const e = src.charCodeAt(i);
    if (e === 101 || e === 69) {
      i++;
      const sign = src.charCodeAt(i);
      if (sign === 43 || sign === 45) i++;
      i = this.digits(i);
    }
    return i;
  }

  digits(from: number): number {
    const src = this.src;
    let j = from;
    while (j < this.end) {
      const c = src.charCodeAt(j);
      if (c < 48 || c > 57) break;
      j++;
    }
    if (j === from) throw DECLINE;
    return j;
  }

  /** The string value at `at` decoded, or undefined (the value skipped) when it is not a string. */
  stringAt(at: number): string | undefined {
    if (this.src.charCodeAt(at) !== QUOTE) return undefined;
    return this.text(at, this.stringEnd(at));
  }

  /** The index after the value at `at` (the value read by `stringAt`/`flagAt` or not at all). */
  after(at: number): number {
    return this.src.charCodeAt(at) === QUOTE ? this.stringEnd(at) : this.skip(at);
  }

  /** True when the value at `at` is the literal `true`. */
  flagAt(at: number): true | undefined {
    return this.src.startsWith('true', at) ? true : undefined;
  }

  /** A value the reader takes with `String(…)`: only a string is read here; anything else declines. */
  idAt(at: number): string {
    if (this.src.charCodeAt(at) !== QUOTE) throw DECLINE;
    return this.text(at, this.stringEnd(at));
  }

  /** The line's object at `at`, read into `skeleton`; returns the index after it. */
  top(at: number, skeleton: ClaudeCodeSkeleton): number {
    const src = this.src;
    if (src.charCodeAt(at) !== OPEN_OBJECT) throw DECLINE;
    let i = at + 1;
    if (src.charCodeAt(i) === CLOSE_OBJECT) return i + 1;
    for (;;) {
      const keyEnd = this.keyEnd(i);
      const v = keyEnd + 1;
      let after: number;
      switch (this.keyOf(i, keyEnd, TOP_KEYS)) {
        case 1:
          skeleton.type = this.stringAt(v);
          after = this.after(v);
          break;
        case 2:
          skeleton.uuid = this.stringAt(v);
          after = this.after(v);
          break;
        case 3:
          skeleton.parentUuid = this.stringAt(v);
          after = this.after(v);
          break;
        case 4:
          skeleton.logicalParentUuid = this.stringAt(v);
          after = this.after(v);
          break;
        case 5:
          after = this.after(v);
          skeleton.isSidechain = this.flagAt(v);
          break;
        case 6:
          skeleton.sessionId = this.stringAt(v);
          after = this.after(v);
          break;
        case 7:
          skeleton.cwd = this.stringAt(v);
          after = this.after(v);
          break;
        case 8:
          skeleton.subtype = this.stringAt(v);
          after = this.after(v);
          break;
        case 9:
          after = this.after(v);
          skeleton.isMeta = this.flagAt(v);
          break;
        case 10:
          after = this.after(v);
          skeleton.isCompactSummary = this.flagAt(v);
          break;
        case 11:
          after = this.after(v);
          skeleton.isApiErrorMessage = this.flagAt(v);
          break;
        case 12:
          if (src.charCodeAt(v) === OPEN_OBJECT) after = this.message(v, skeleton);
          else {
            skeleton.message = undefined;
            after = this.after(v);
          }
          break;
        default:
          after = this.after(v);
      }
      const next = this.nextMember(after);
      if (next < 0) return -next;
      i = next;
    }
  }

  message(at: number, skeleton: ClaudeCodeSkeleton): number {
    const src = this.src;
    const message: SkeletonMessage = { id: undefined, model: undefined, content: undefined };
    skeleton.message = message;
    let i = at + 1;
    if (src.charCodeAt(i) === CLOSE_OBJECT) return i + 1;
    for (;;) {
      const keyEnd = this.keyEnd(i);
      const v = keyEnd + 1;
      let after: number;
      switch (this.keyOf(i, keyEnd, MESSAGE_KEYS)) {
        case 1:
          message.id = this.stringAt(v);
          after = this.after(v);
          break;
        case 2:
          message.model = this.stringAt(v);
          after = this.after(v);
          break;
        case 3:
          after = this.content(v, message);
          break;
        default:
          after = this.after(v);
      }
      const next = this.nextMember(after);
      if (next < 0) return -next;
      i = next;
    }
  }

  content(at: number, message: SkeletonMessage): number {
    const src = this.src;
    const c = src.charCodeAt(at);
    if (c === QUOTE) {
      const after = this.stringEnd(at);
      message.content = this.mark(at, after);
      return after;
    }
    if (c !== OPEN_ARRAY) {
      message.content = undefined;
      return this.skip(at);
    }
    const blocks: SkeletonBlock[] = [];
    message.content = blocks;
    let i = at + 1;
    if (src.charCodeAt(i) === CLOSE_ARRAY) return i + 1;
    for (;;) {
      if (src.charCodeAt(i) === OPEN_OBJECT) {
        const block = emptyBlock();
        blocks.push(block);
        i = this.block(i, block);
      } else i = this.after(i);
      const next = src.charCodeAt(i);
      if (next === CLOSE_ARRAY) return i + 1;
      if (next !== COMMA) throw DECLINE;
      i++;
    }
  }

  block(at: number, block: SkeletonBlock): number {
    const src = this.src;
    let i = at + 1;
    if (src.charCodeAt(i) === CLOSE_OBJECT) return i + 1;
    for (;;) {
      const keyEnd = this.keyEnd(i);
      const v = keyEnd + 1;
      let after: number;
      switch (this.keyOf(i, keyEnd, BLOCK_KEYS)) {
        case 1:
          block.type = this.stringAt(v);
          after = this.after(v);
          break;
        case 2:
          if (src.charCodeAt(v) === QUOTE) {
            after = this.stringEnd(v);
            block.text = this.mark(v, after);
          } else {
            block.text = undefined;
            after = this.after(v);
          }
          break;
        case 3:
          block.id = this.idAt(v);
          after = this.stringEnd(v);
          break;
        case 4:
          block.name = this.idAt(v);
          after = this.stringEnd(v);
          break;
        case 5:
          block.tool_use_id = this.idAt(v);
          after = this.stringEnd(v);
          break;
        case 6:
          block.thinking = src.charCodeAt(v) === QUOTE ? '' : undefined;
          after = this.after(v);
          break;
        case 7:
          block.data = src.charCodeAt(v) === QUOTE ? '' : undefined;
          after = this.after(v);
          break;
        default:
          after = this.after(v);
      }
      const next = this.nextMember(after);
      if (next < 0) return -next;
      i = next;
    }
  }
}
