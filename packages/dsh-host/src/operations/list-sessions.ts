/** @module `listSessions`, `resolveRef` (ids and names), `mostRecentForCwd` and the live sessions sharing a working directory. */
import { resolve as resolvePath } from 'node:path';
import { CURRENT_FORMAT_VERSION } from 'dsh-codec';
import type { SessionSummary } from 'dsh-session';
import { HostError } from '../host-error.js';
import type { HostContext, LiveEntry } from '../host-context.js';
import type { SessionListItem } from '../host-types.js';
import { resolveSessionRef } from './resolve-session-ref.js';

/** A live session's working directory, as its agent resolves it. @internal */
export function liveCwd(entry: LiveEntry): string | undefined {
  return entry.agent.cwd();
}

/** The other live sessions of this host whose working directory is `cwd`. @internal */
export function sharingCwd(context: HostContext, id: string, cwd: string | undefined): string[] {
  if (cwd === undefined) return [];
  const absolute = resolvePath(cwd);
  return [...context.live.entries()]
    .filter(([otherId, entry]) => otherId !== id && liveCwd(entry) === absolute)
    .map(([otherId]) => otherId)
    .sort();
}

function itemOf(context: HostContext, summary: SessionSummary): SessionListItem {
  const { live, readFrom } = context;
  const entry = live.get(summary.id);
  if (entry === undefined) {
    const item: SessionListItem = {
      id: summary.id,
      createdAt: summary.createdAt,
      updatedAt: summary.updatedAt,
      lastSeq: summary.lastSeq,
      live: false,
      status: summary.busy ? 'busy' : summary.needsRepair ? 'needs-repair' : 'stored',
      formatVersion: readFrom.get(summary.id) ?? summary.formatVersion,
      sharesCwdWith: sharingCwd(context, summary.id, summary.cwd),
    };
    if (summary.title !== undefined) item.title = summary.title;
    if (summary.parentSession !== undefined) item.parentSession = summary.parentSession;
    if (summary.forkCut !== undefined) item.forkCut = summary.forkCut;
    if (summary.cwd !== undefined) item.cwd = summary.cwd;
    return item;
  }
  const { session, agent } = entry;
  const last = session.eventsFrom(session.nextSeq - 1)[0];
  const cwd = liveCwd(entry);
  const item: SessionListItem = {
    id: session.id,
    createdAt: session.header.createdAt,
    updatedAt: Math.max(summary.updatedAt, last?.time ?? 0),
    lastSeq: session.nextSeq - 1,
    live: true,
    status: agent.running ? 'running' : 'idle',
    formatVersion: readFrom.get(session.id) ?? CURRENT_FORMAT_VERSION,
    ...(cwd === undefined ? {} : { cwd }),
    sharesCwdWith: sharingCwd(context, session.id, cwd),
  };
  const title = session.title;
  if (title !== undefined) item.title = title;
  if (session.header.parentSession !== undefined) item.parentSession = session.header.parentSession;
  if (session.header.forkCut !== undefined) item.forkCut = session.header.forkCut;
  return item;
}

/**
 * Every stored session, live ones as this host sees them, most recently updated first; `busy`: only
 * the live and held ones (the store reads no other summary; a store that ignores the option is filtered here). @internal
 */
export async function listSessions(context: HostContext, options: { busy?: boolean } = {}): Promise<SessionListItem[]> {
  const busy = options.busy === true;
  const summaries = busy ? (await context.store.list({ busy })).filter((summary) => summary.busy) : await context.store.list();
  return summaries.map((summary) => itemOf(context, summary)).sort((a, b) => b.updatedAt - a.updatedAt || a.id.localeCompare(b.id));
}

async function exists(context: HostContext, id: string): Promise<boolean> {
  if (context.live.has(id)) return true;
  try {
    return await context.store.has(id);
  } catch {
    // A name with characters an id may not hold is simply not an id.
    return false;
  }
}

/**
 * An id or a name to one session id (`SESSION_NOT_FOUND`, `NAME_AMBIGUOUS`); see `resolveSessionRef`.
 * An id is checked by itself; a name against the sessions' summaries. No session's events are read. @internal
 */
export async function resolveRef(context: HostContext, ref: string): Promise<string> {
  if (await exists(context, ref)) return ref;
  const items = await listSessions(context);
  const matches = items.filter((item) => item.title === ref);
  if (matches.length <= 1) return resolveSessionRef(items, ref);
  // Several sessions carry the name: tell the one that set it from forks that inherited it, as the
  // store's summaries (cached by the listing above) say — no session's events are read.
  const inherited = new Set((await context.store.list()).filter((summary) => summary.titleInherited === true).map((summary) => summary.id));
  return resolveSessionRef(
    matches.map((item) => ({ id: item.id, title: ref, titleInherited: inherited.has(item.id) })),
    ref,
  );
}

/** The most recently updated session whose working directory is `cwd` (`SESSION_NOT_FOUND` if none). @internal */
export async function mostRecentForCwd(context: HostContext, cwd: string): Promise<string> {
  const absolute = resolvePath(cwd);
  const match = (await listSessions(context)).find((item) => item.cwd !== undefined && resolvePath(item.cwd) === absolute);
  if (match === undefined)
    throw new HostError('SESSION_NOT_FOUND', `No session to continue in ${absolute}: none has this working directory.`);
  return match.id;
}
