/**
 * pi's file format for native forks: a `{"type":"session",id,…}` header, then entries keyed by `id`
 * and chained by `parentId` (version 1: no ids, each entry follows the line before it); the child lives at `<folder>/<iso time>_<session id>.jsonl` and names
 * its source file in the header's `parentSession`.
 */
import type { NativeFormat } from './native-format.js';
import { NATIVE_RESUME } from './native-resume-command.js';
import { isoTime } from './native-format.js';
import { derivedUuid, field, type NativeLine } from './native-line.js';

function idIndex(lines: readonly NativeLine[]): Map<string, number> {
  const byId = new Map<string, number>();
  lines.forEach((line, position) => {
    const id = field(line.value, 'id');
    if (position > 0 && id !== undefined && !byId.has(id)) byId.set(id, position);
  });
  return byId;
}

/** pi (`~/.pi/agent/sessions/--<cwd>--/<time>_<uuid>.jsonl`). */
export const PI_NATIVE: NativeFormat = {
  format: 'pi',
  sessionIdOf: (lines) => field(lines[0]?.value, 'id'),
  findRef: (lines, ref) => idIndex(lines).get(ref),
  refOf: (line) => (line.index === 0 ? undefined : field(line.value, 'id')),
  refHint: (lines, ref) => {
    const ids = [...idIndex(lines).keys()];
    const near = ids.filter((id) => ref.length >= 2 && id.startsWith(ref.slice(0, 2)));
    const shown = (near.length > 0 ? near : ids.slice(-3)).slice(0, 5);
    return `expected the id of one of its ${String(ids.length)} entries${near.length > 0 ? ', e.g. the similar' : ', e.g. the newest'} ${shown.join(', ')}, or seq:N`;
  },
  chainTo: (lines, at) => {
    // Version 1 entries have no ids: each follows the line before it, so the chain is every line up to the cut.
    if (at > 0 && field((lines[at] as NativeLine).value, 'id') === undefined) return lines.slice(0, at + 1);
    const byId = idIndex(lines);
    const kept = new Set<number>();
    for (let position: number | undefined = at; position !== undefined && position > 0 && !kept.has(position);) {
      kept.add(position);
      const parent = field((lines[position] as NativeLine).value, 'parentId');
      position = parent === undefined ? undefined : byId.get(parent);
    }
    kept.add(0);
    return [...kept].sort((a, b) => a - b).map((position) => lines[position] as NativeLine);
  },
  mainLeaf: (lines) => {
    for (let position = lines.length - 1; position > 0; position--)
      if ((lines[position] as NativeLine).value.type === 'message') return position;
    return -1;
  },
  rewrite: (line, { to, parentFile, header }) => {
    if (!header) return line.raw;
    // The header is the one line pi needs changed: a new id, and the file it was forked from.
    const value: Record<string, unknown> = { ...line.value, id: to };
    if (parentFile !== undefined) value.parentSession = parentFile;
    return JSON.stringify(value);
  },
  closer: (input, { previous, sessionId, now, salt }) => {
    // After a version 1 entry (no id), the closer is one too: it follows the line before it.
    const v1 = previous.index > 0 && field(previous.value, 'id') === undefined;
    const value = {
      type: 'message',
      ...(v1 ? {} : { id: derivedUuid(sessionId, salt, input.callId).slice(0, 8), parentId: field(previous.value, 'id') ?? null }),
      timestamp: isoTime(now),
      message: {
        role: 'toolResult',
        toolCallId: input.callId,
        toolName: input.name,
        content: [{ type: 'text', text: input.text }],
        isError: input.isError,
        timestamp: now,
      },
    };
    return { index: previous.index + 1, raw: JSON.stringify(value), value };
  },
  fileName: (sessionId, now) => `${isoTime(now).replace(/[:.]/g, '-')}_${sessionId}.jsonl`,
  resume: NATIVE_RESUME.pi,
};
