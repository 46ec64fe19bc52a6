/**
 * The few fields of a Claude Code line that decide its place in the entry tree and the count and
 * shape of the events `dsh import` reads from it — a line's *skeleton* — and
 * `claudeCodeSkeletonOf`, which projects a parsed line onto it (the reference reading, and the
 * fallback for a line the scanner declines). The native fork of a file reads every line through its
 * skeleton instead of `JSON.parse` (the WebAssembly scanner, `assembly/claude-code-rows.ts`, finds
 * those fields in the line's bytes). Texts are kept only as far as the reader looks at them: whether they start with Claude
 * Code's interruption marker.
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
/** The interruption mark of a text: the marker when it starts with it, '' for another string. */
export const markOf = (value: unknown): string | undefined =>
  typeof value === 'string' ? (value.startsWith(CLAUDE_CODE_INTERRUPTED) ? CLAUDE_CODE_INTERRUPTED : '') : undefined;
// eslint-disable-next-line @typescript-eslint/no-base-to-string -- `String(…)` exactly as the reader takes an id, objects included
const stringOf = (value: unknown): string | undefined => (value === undefined ? undefined : String(value));
const present = (value: unknown): string | undefined => (typeof value === 'string' ? '' : undefined);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A skeleton with every field unset. */
export function emptySkeleton(): ClaudeCodeSkeleton {
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

/** A block with every field unset. */
export function emptyBlock(): SkeletonBlock {
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
      content:
        typeof content === 'string'
          ? markOf(content)
          : Array.isArray(content)
            ? (content as unknown[]).filter(isRecord).map(blockOf)
            : undefined,
    };
  }
  return out;
}

function blockOf(block: Record<string, unknown>): SkeletonBlock {
  const out = emptyBlock();
  out.type = str(block.type);
  out.text = markOf(block.text);
  out.id = stringOf(block.id);
  out.name = stringOf(block.name);
  out.tool_use_id = stringOf(block.tool_use_id);
  out.thinking = present(block.thinking);
  out.data = present(block.data);
  return out;
}
