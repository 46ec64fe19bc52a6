/**
 * Arranges the session list as a forest of forks: each child under its parent, with the cut it
 * was forked at. A child whose parent is not listed becomes a root.
 */
import type { SessionRow } from './wire.js';

/** A session and the forks taken from it. */
export type LineageNode = { session: SessionRow; children: LineageNode[] };

/** Roots and children ordered by creation time, then id. */
export function lineageForest(sessions: readonly SessionRow[]): LineageNode[] {
  const nodes = new Map(sessions.map((session) => [session.id, { session, children: [] as LineageNode[] }]));
  const roots: LineageNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.session.parentSession === undefined ? undefined : nodes.get(node.session.parentSession);
    if (parent && parent !== node) parent.children.push(node);
    else roots.push(node);
  }
  const order = (a: LineageNode, b: LineageNode) =>
    a.session.createdAt - b.session.createdAt || a.session.id.localeCompare(b.session.id);
  const sort = (list: LineageNode[]): LineageNode[] => {
    list.sort(order);
    for (const node of list) sort(node.children);
    return list;
  };
  return sort(roots);
}
