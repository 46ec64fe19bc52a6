/**
 * The fork lineage of Claude Agent SDK transcripts stored by dsh-claude-agent-sdk, for `dsh sessions`
 * (SPEC §26): such a session is one dsh session of its own (no dsh parent), so its lineage is read
 * from its first events — `claude/key` (the SDK key it mirrors), `claude/fork` (written by
 * `forkClaudeSession`: parent and entry) or, for the SDK's own `forkSession`, the `forkedFrom` its
 * copied entries carry (the parent's SDK session id, found among the listed transcripts of the same
 * project). Only sessions whose id is the package's hashed key form are read, each once, and of each
 * only its first events, found by type (`findEvents`): the rest of the transcript is never decoded.
 */
import { findEvents, type SessionStore } from 'dsh-host/core';

/** Where an SDK transcript was forked from: its parent's dsh id, and the entry (`forkClaudeSession`) or `forkSession`. */
export type ClaudeSdkFork = { parentSession: string; at?: string; by: 'forkClaudeSession' | 'forkSession' };

/** dsh-claude-agent-sdk's session ids: `claude-<16 hex>-<32 hex>` (a main transcript; subkeys have one more part). */
const SDK_MAIN_ID = /^claude-[0-9a-f]{16}-[0-9a-f]{32}$/;
/** The seed, the key and the fork record come first; the first entry right after. */
const HEAD_EVENTS = 6;

type Head = { id: string; projectKey?: string; sessionId?: string; fork?: { parentSession?: unknown; at?: unknown }; forkedFrom?: string };

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

async function headOf(store: SessionStore, id: string): Promise<Head | undefined> {
  let events;
  try {
    events = findEvents(await store.observe(id), ['claude/key', 'claude/fork', 'claude/entry'], { before: HEAD_EVENTS });
  } catch {
    return undefined;
  }
  const head: Head = { id };
  for (const event of events) {
    const data = record(event.data);
    if (event.type === 'claude/key' && head.projectKey === undefined) {
      if (typeof data.projectKey === 'string') head.projectKey = data.projectKey;
      if (typeof data.sessionId === 'string') head.sessionId = data.sessionId;
    } else if (event.type === 'claude/fork' && head.fork === undefined) head.fork = data;
    else if (event.type === 'claude/entry' && head.forkedFrom === undefined) {
      const from = record(data.forkedFrom).sessionId;
      head.forkedFrom = typeof from === 'string' ? from : '';
    }
  }
  return head;
}

/** The SDK forks among `items` (ids of the SDK form without a dsh parent), by child id. */
export async function claudeSdkLineage(
  store: SessionStore,
  items: readonly { id: string; parentSession?: string }[],
): Promise<Map<string, ClaudeSdkFork>> {
  const heads: Head[] = [];
  for (const item of items)
    if (item.parentSession === undefined && SDK_MAIN_ID.test(item.id)) {
      const head = await headOf(store, item.id);
      if (head !== undefined) heads.push(head);
    }
  const byKey = new Map(heads.map((head) => [`${head.projectKey ?? ''}\u0000${head.sessionId ?? ''}`, head.id]));
  const forks = new Map<string, ClaudeSdkFork>();
  for (const head of heads) {
    if (typeof head.fork?.parentSession === 'string') {
      const at = typeof head.fork.at === 'string' ? { at: head.fork.at } : {};
      forks.set(head.id, { parentSession: head.fork.parentSession, ...at, by: 'forkClaudeSession' });
      continue;
    }
    const parent =
      head.forkedFrom === undefined || head.forkedFrom === '' ? undefined : byKey.get(`${head.projectKey ?? ''}\u0000${head.forkedFrom}`);
    if (parent !== undefined && parent !== head.id) forks.set(head.id, { parentSession: parent, by: 'forkSession' });
  }
  return forks;
}
