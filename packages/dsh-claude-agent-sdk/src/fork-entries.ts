/**
 * The entries of a fork child: the chain from the root to the cut entry (by `parentUuid`), its
 * `sessionId` fields set to the child's, then one `tool_result` entry (`is_error: true`) per call
 * open at the cut, holding exactly the text dsh's shared closer stores for it (dsh-codec's synthetic
 * results, read through dsh-import's reading of the chain). Stand-in until dsh-import's native fork
 * (`forkClaudeCodeEntries`) is on main; same cut, same closers.
 */
import { createHash } from 'node:crypto';
import { syntheticResultText, type SessionEvent, type ToolEffect } from 'dsh-codec';
import { importTranscript } from 'dsh-import';
import { ClaudeStoreError } from './claude-store-error.js';
import type { SessionStoreEntry } from './claude-types.js';

type OpenCall = { callId: string; started: boolean; effect: ToolEffect };

/** The open step's calls without a result at the end of `events` (SPEC §4's scan). */
function openCalls(events: readonly SessionEvent[]): OpenCall[] {
  let open = false;
  let pending: OpenCall[] = [];
  for (const { type, data } of events) {
    const value = data as Record<string, unknown>;
    if (type === 'turn/start' || type === 'turn/end') open = type === 'turn/start';
    if (type === 'turn/start' || type === 'turn/end' || type === 'step/start' || type === 'step/end') pending = [];
    else if (type === 'assistant/message') {
      for (const block of (value.message as { content: { type: string; id?: string }[] }).content) {
        if (block.type === 'tool-call') pending.push({ callId: block.id ?? '', started: false, effect: 'unknown' });
      }
    } else if (type === 'tool/call') {
      const call = pending.find((candidate) => candidate.callId === value.callId);
      if (call !== undefined) Object.assign(call, { started: true, effect: value.effect as ToolEffect });
    } else if (type === 'tool/result') {
      pending = pending.filter((candidate) => candidate.callId !== (value.message as { callId: string }).callId);
    }
  }
  return open ? pending : [];
}

function uuidFrom(...parts: string[]): string {
  const hex = createHash('sha256').update(parts.join('\u0000')).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The child's entries and how many were copied from the parent; `INVALID_CUT` when `at` is no entry's uuid. */
export function forkEntries(entries: readonly SessionStoreEntry[], options: { at: string; sessionId: string; now: number }): { entries: SessionStoreEntry[]; inheritedEntryCount: number } {
  const byUuid = new Map<string, number>();
  entries.forEach((entry, position) => {
    if (entry.uuid !== undefined && !byUuid.has(entry.uuid)) byUuid.set(entry.uuid, position);
  });
  const cut = byUuid.get(options.at);
  if (cut === undefined) {
    const newest = [...byUuid.keys()].slice(-3).join(', ');
    throw new ClaudeStoreError('INVALID_CUT', `Cannot fork at ${JSON.stringify(options.at)}: expected the uuid of one of the ${String(byUuid.size)} entries of the main transcript (the newest: ${newest || 'none'}); nothing was created.`);
  }
  const kept = new Set<number>();
  for (let position: number | undefined = cut; position !== undefined && !kept.has(position); ) {
    kept.add(position);
    const entry = entries[position] as SessionStoreEntry;
    const parent = typeof entry.parentUuid === 'string' ? entry.parentUuid : typeof entry.logicalParentUuid === 'string' ? entry.logicalParentUuid : undefined;
    position = parent === undefined ? undefined : byUuid.get(parent);
  }
  const chain = [...kept].sort((a, b) => a - b).map((position) => entries[position] as SessionStoreEntry);
  const parentId = chain.find((entry) => typeof entry.sessionId === 'string')?.sessionId;
  const child = chain.map((entry) => (parentId !== undefined && entry.sessionId === parentId ? { ...entry, sessionId: options.sessionId } : { ...entry }));
  const events = importTranscript(chain.map((entry) => JSON.stringify(entry)).join('\n') + '\n', { format: 'claude-code', sessionId: 'fork-cut' }).sessions[0]?.events ?? [];
  let previous = child[child.length - 1] as SessionStoreEntry;
  for (const call of openCalls(events)) {
    const text = syntheticResultText('forked', call.started, call.effect);
    const closer: SessionStoreEntry = {
      parentUuid: previous.uuid ?? null,
      isSidechain: false,
      type: 'user',
      message: { role: 'user', content: [{ tool_use_id: call.callId, type: 'tool_result', content: text, is_error: true }] },
      uuid: uuidFrom(options.sessionId, options.at, call.callId),
      timestamp: new Date(options.now).toISOString(),
      toolUseResult: `Error: ${text}`,
      sessionId: options.sessionId,
      ...Object.fromEntries(['userType', 'entrypoint', 'cwd', 'version', 'gitBranch'].filter((name) => previous[name] !== undefined).map((name) => [name, previous[name]])),
    };
    child.push(closer);
    previous = closer;
  }
  return { entries: child, inheritedEntryCount: chain.length };
}
