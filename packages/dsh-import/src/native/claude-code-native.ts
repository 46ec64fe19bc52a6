/**
 * Claude Code's file format for native forks: entries keyed by `uuid`, chained by `parentUuid`;
 * `sessionId` on every line; the child lives at `<folder>/<session id>.jsonl`.
 */
import { CLAUDE_CODE_QUIET_TYPES } from '../claude-code/claude-code-line-types.js';
import { claudeCodeTree, type ClaudeCodeEntry, type ClaudeCodeTree } from '../claude-code/claude-code-tree.js';
import { lineEndingAt, mainLeafOf } from '../transcript-tree.js';
import type { NativeFormat } from './native-format.js';
import { NATIVE_RESUME } from './native-resume-command.js';
import { isoTime } from './native-format.js';
import { derivedUuid, field, replaceIdFields, type NativeLine } from './native-line.js';

type LineTree = { tree: ClaudeCodeTree; positionOfLine: { get(line: number): number | undefined } };

const TREES = new WeakMap<readonly NativeLine[], LineTree>();

/** The import's tree of `lines` (computed once per array), and each source line's position in it. */
function treeOf(lines: readonly NativeLine[]): LineTree {
  let found = TREES.get(lines);
  if (found === undefined) {
    // Line numbers are small integers: an array indexed by them, -1 where no line stands.
    const positions = new Int32Array((lines.length === 0 ? 0 : (lines[lines.length - 1] as NativeLine).index) + 2).fill(-1);
    lines.forEach((line, position) => {
      if (line.index + 1 < positions.length) positions[line.index + 1] = position;
    });
    const positionOfLine = {
      get: (line: number): number | undefined => {
        const position = positions[line];
        return position === undefined || position < 0 ? undefined : position;
      },
    };
    found = {
      tree: claudeCodeTree(
        lines.map((line) => ({ line: line.index + 1, value: line.value })),
        CLAUDE_CODE_QUIET_TYPES,
      ),
      positionOfLine,
    };
    TREES.set(lines, found);
  }
  return found;
}

function uuidIndex(lines: readonly NativeLine[]): Map<string, number> {
  const byUuid = new Map<string, number>();
  lines.forEach((line, position) => {
    const uuid = field(line.value, 'uuid');
    if (uuid !== undefined && !byUuid.has(uuid)) byUuid.set(uuid, position);
  });
  return byUuid;
}

/** Copies a line's context fields (cwd, version, …) that Claude Code writes on every entry. */
function contextOf(previous: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of ['userType', 'entrypoint', 'cwd', 'version', 'gitBranch']) if (previous[key] !== undefined) out[key] = previous[key];
  return out;
}

/** Claude Code (`~/.claude/projects/<dir>/<uuid>.jsonl`). */
export const CLAUDE_CODE_NATIVE: NativeFormat = {
  format: 'claude-code',
  sessionIdOf: (lines) => {
    for (const line of lines) {
      const id = field(line.value, 'sessionId');
      if (id !== undefined) return id;
    }
    return undefined;
  },
  findRef: (lines, ref) => {
    // The first entry with that uuid, as the index of all of them would give (without building it).
    const position = lines.findIndex((line) => field(line.value, 'uuid') === ref);
    return position < 0 ? undefined : position;
  },
  refOf: (line) => field(line.value, 'uuid'),
  refHint: (lines, ref) => {
    const uuids = [...uuidIndex(lines).keys()];
    const near = uuids.filter((uuid) => ref.length >= 4 && uuid.startsWith(ref.slice(0, 4)));
    const shown = (near.length > 0 ? near : uuids.slice(-3)).slice(0, 5);
    return `expected the uuid of one of its ${String(uuids.length)} entries${near.length > 0 ? ', e.g. the similar' : ', e.g. the newest'} ${shown.join(', ')}, or seq:N`;
  },
  chainTo: (lines, at) => {
    const { tree, positionOfLine } = treeOf(lines);
    const uuid = field((lines[at] as NativeLine).value, 'uuid');
    const keys = uuid === undefined || !tree.entries.has(uuid) ? undefined : lineEndingAt(tree.nodes, uuid, tree.absorbs);
    if (keys === undefined) return [lines[at] as NativeLine];
    return keys.map((key) => lines[positionOfLine.get((tree.entries.get(key) as ClaudeCodeEntry).line) as number] as NativeLine);
  },
  mainLeaf: (lines) => {
    const { tree, positionOfLine } = treeOf(lines);
    const leaf = mainLeafOf(tree.nodes);
    return leaf === undefined ? -1 : (positionOfLine.get((tree.entries.get(leaf.key) as ClaudeCodeEntry).line) ?? -1);
  },
  rewrite: (line, { from, to }) => replaceIdFields(line.raw, ['sessionId'], from, to),
  closer: (input, { previous, sessionId, now, salt }) => {
    const uuid = derivedUuid(sessionId, salt, input.callId);
    const value: Record<string, unknown> = {
      parentUuid: field(previous.value, 'uuid') ?? null,
      isSidechain: false,
      type: 'user',
      message: {
        role: 'user',
        content: [{ tool_use_id: input.callId, type: 'tool_result', content: input.text, is_error: input.isError }],
      },
      uuid,
      timestamp: isoTime(now),
      toolUseResult: `Error: ${input.text}`,
      sessionId,
      ...contextOf(previous.value),
    };
    return { index: previous.index + 1, raw: JSON.stringify(value), value };
  },
  fileName: (sessionId) => `${sessionId}.jsonl`,
  resume: NATIVE_RESUME['claude-code'],
  responseIdOf: (line) =>
    line.value.type === 'assistant' ? field((line.value.message ?? {}) as Record<string, unknown>, 'id') : undefined,
};
