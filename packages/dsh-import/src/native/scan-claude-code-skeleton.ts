/**
 * `scanClaudeCodeSkeleton`: a Claude Code line's skeleton (`claude-code-skeleton.ts`) read from
 * its bytes — the top-level keys the reader and the tree look at, the message's id, model and
 * content blocks — every other value skipped without building it.
 * @module
 */
import {
  CLAUDE_CODE_INTERRUPTED,
  emptyBlock,
  emptySkeleton,
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
  type DecodeString,
} from './json-line-scanner.js';

export type { DecodeString } from './json-line-scanner.js';

const TOP_KEYS = keyTable([
  'type',
  'uuid',
  'parentUuid',
  'logicalParentUuid',
  'isSidechain',
  'sessionId',
  'cwd',
  'subtype',
  'isMeta',
  'isCompactSummary',
  'isApiErrorMessage',
  'message',
]);
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
export function claudeCodeSkeletonScanner(
  src: string,
  decode: DecodeString,
): (start: number, end: number) => ClaudeCodeSkeleton | undefined {
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

class SkeletonScanner extends JsonLineScanner {
  /** The interruption mark of the string token `[at, after)`, as `mark` gives it for the decoded text. */
  mark(at: number, after: number): string {
    const src = this.src;
    const length = CLAUDE_CODE_INTERRUPTED.length;
    for (let i = 0; i < length; i++) {
      const position = at + 1 + i;
      if (position >= after - 1) return '';
      const c = src.charCodeAt(position);
      // An escape can spell the marker's characters: decode to be sure.
      if (c === BACKSLASH) return markOf(this.decode(at, after)) as string;
      if (c !== CLAUDE_CODE_INTERRUPTED.charCodeAt(i)) return '';
    }
    return CLAUDE_CODE_INTERRUPTED;
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
