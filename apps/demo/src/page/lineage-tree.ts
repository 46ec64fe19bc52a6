/**
 * Arranges the session list as a forest of forks: each child under its parent, with the cut it
 * was forked at. A child whose parent is not listed becomes a root.
 */
import type { SessionRow } from './wire.js';

/** A session and the forks taken from it. */
export type LineageNode = { session: SessionRow; children: LineageNode[] };

/** Roots ordered by creation time, then id; children by the seq of their fork cut, then creation time, then id. */
export function lineageForest(sessions: readonly SessionRow[]): LineageNode[] {
  const nodes = new Map(sessions.map((session) => [session.id, { session, children: [] as LineageNode[] }]));
  const roots: LineageNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.session.parentSession === undefined ? undefined : nodes.get(node.session.parentSession);
    if (parent && parent !== node) parent.children.push(node);
    else roots.push(node);
  }
  const byCreation = (a: LineageNode, b: LineageNode) =>
    a.session.createdAt - b.session.createdAt || a.session.id.localeCompare(b.session.id);
  const byCut = (a: LineageNode, b: LineageNode) => (a.session.forkCut ?? -1) - (b.session.forkCut ?? -1) || byCreation(a, b);
  const sort = (list: LineageNode[], order: typeof byCreation): LineageNode[] => {
    list.sort(order);
    for (const node of list) sort(node.children, byCut);
    return list;
  };
  return sort(roots, byCreation);
}

/**
 * The name a session is listed under: its own title, else, for a fork (untitled, or with the title
 * inherited from its parent), its parent's name with the cut (`Tour @ seq 14`); else its id.
 */
export function sessionLabel(session: SessionRow, byId: ReadonlyMap<string, SessionRow>, seen: ReadonlySet<string> = new Set()): string {
  const parent = session.parentSession === undefined ? undefined : byId.get(session.parentSession);
  // A fork inherits its parent's title events: the same title as the parent's is not its own.
  if (session.title !== undefined && session.title !== parent?.title) return session.title;
  if (session.forkCut !== undefined && session.parentSession !== undefined) {
    const parentName =
      parent === undefined || seen.has(parent.id) ? session.parentSession : sessionLabel(parent, byId, new Set([...seen, session.id]));
    return `${parentName} @ seq ${session.forkCut}`;
  }
  return session.id;
}
