/**
 * Claude Code's file format for native forks: entries keyed by `uuid`, chained by `parentUuid`;
 * `sessionId` on every line; the child lives at `<folder>/<session id>.jsonl`.
 */
import type { NativeFormat } from './native-format.js';
import { isoTime } from './native-format.js';
import { derivedUuid, field, replaceIdFields, type NativeLine } from './native-line.js';

const MESSAGE_TYPES = new Set(['user', 'assistant']);

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
  findRef: (lines, ref) => uuidIndex(lines).get(ref),
  refHint: (lines, ref) => {
    const uuids = [...uuidIndex(lines).keys()];
    const near = uuids.filter((uuid) => ref.length >= 4 && uuid.startsWith(ref.slice(0, 4)));
    const shown = (near.length > 0 ? near : uuids.slice(-3)).slice(0, 5);
    return `expected the uuid of one of its ${String(uuids.length)} entries${near.length > 0 ? ', e.g. the similar' : ', e.g. the newest'} ${shown.join(', ')}, or seq:N`;
  },
  chainTo: (lines, at) => {
    const byUuid = uuidIndex(lines);
    const kept = new Set<number>();
    for (let position: number | undefined = at; position !== undefined && !kept.has(position); ) {
      kept.add(position);
      const value: Record<string, unknown> = (lines[position] as NativeLine).value;
      const parent: string | undefined = field(value, 'parentUuid') ?? field(value, 'logicalParentUuid');
      position = parent === undefined ? undefined : byUuid.get(parent);
    }
    return [...kept].sort((a, b) => a - b).map((position) => lines[position] as NativeLine);
  },
  mainLeaf: (lines) => {
    for (let position = lines.length - 1; position >= 0; position--) {
      const value = (lines[position] as NativeLine).value;
      if (MESSAGE_TYPES.has(String(value.type)) && field(value, 'uuid') !== undefined && value.isSidechain !== true) return position;
    }
    return -1;
  },
  rewrite: (line, { from, to }) => replaceIdFields(line.raw, ['sessionId'], from, to),
  closer: (input, { previous, sessionId, now, salt }) => {
    const uuid = derivedUuid(sessionId, salt, input.callId);
    const value: Record<string, unknown> = {
      parentUuid: field(previous.value, 'uuid') ?? null,
      isSidechain: false,
      type: 'user',
      message: { role: 'user', content: [{ tool_use_id: input.callId, type: 'tool_result', content: input.text, is_error: input.isError }] },
      uuid,
      timestamp: isoTime(now),
      toolUseResult: `Error: ${input.text}`,
      sessionId,
      ...contextOf(previous.value),
    };
    return { index: previous.index + 1, raw: JSON.stringify(value), value };
  },
  fileName: (sessionId) => `${sessionId}.jsonl`,
  resume: (sessionId) => ['claude', '--resume', sessionId],
};
