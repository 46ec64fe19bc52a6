/** @module `lineageOf` and `sessionForest`: a session's ancestors and descendants, and the whole fork forest, from list items. */
import { HostError } from '../host-error.js';

/** What lineage needs from a session summary. */
export type LineageEntry = {
  id: string;
  title?: string;
  parentSession?: string;
  forkCut?: number;
  createdAt: number;
};

/** One session in a lineage; `missing` marks a parent id whose session no longer exists. */
export type LineageNode = {
  id: string;
  title?: string;
  parentSession?: string;
  forkCut?: number;
  createdAt?: number;
  missing?: true;
};

/** A session and every session forked from it, children oldest first. */
export type LineageTree = LineageNode & { children: LineageTree[] };

/** Ancestors root first (ending with the parent), the session itself, and its descendants as trees. */
export type Lineage = { session: LineageNode; ancestors: LineageNode[]; descendants: LineageTree[] };

function nodeOf(entry: LineageEntry): LineageNode {
  const node: LineageNode = { id: entry.id, createdAt: entry.createdAt };
  if (entry.title !== undefined) node.title = entry.title;
  if (entry.parentSession !== undefined) node.parentSession = entry.parentSession;
  if (entry.forkCut !== undefined) node.forkCut = entry.forkCut;
  return node;
}

function childrenIndex(entries: readonly LineageEntry[]): Map<string, LineageEntry[]> {
  const children = new Map<string, LineageEntry[]>();
  for (const entry of entries) {
    if (entry.parentSession === undefined) continue;
    const list = children.get(entry.parentSession) ?? [];
    list.push(entry);
    children.set(entry.parentSession, list);
  }
  for (const list of children.values()) list.sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
  return children;
}

function treeOf(entry: LineageEntry, children: Map<string, LineageEntry[]>, seen: Set<string>): LineageTree {
  seen.add(entry.id);
  const kids = (children.get(entry.id) ?? []).filter((child) => !seen.has(child.id));
  return { ...nodeOf(entry), children: kids.map((child) => treeOf(child, children, seen)) };
}

/**
 * The lineage of `id` among `entries`: follows `parentSession` up to the root and collects every
 * descendant. `SESSION_NOT_FOUND` when `id` is not among them; a deleted ancestor ends the chain as `missing`.
 */
export function lineageOf(entries: readonly LineageEntry[], id: string): Lineage {
  const byId = new Map(entries.map((entry) => [entry.id, entry]));
  const self = byId.get(id);
  if (self === undefined) throw new HostError('SESSION_NOT_FOUND', `No session with id '${id}'.`);
  const ancestors: LineageNode[] = [];
  const seen = new Set([id]);
  for (let parent = self.parentSession; parent !== undefined && !seen.has(parent);) {
    seen.add(parent);
    const entry = byId.get(parent);
    if (entry === undefined) {
      ancestors.unshift({ id: parent, missing: true });
      break;
    }
    ancestors.unshift(nodeOf(entry));
    parent = entry.parentSession;
  }
  const tree = treeOf(self, childrenIndex(entries), new Set());
  return { session: nodeOf(self), ancestors, descendants: tree.children };
}

/** Every session as a forest: roots are sessions without a (still existing) parent, oldest first. */
export function sessionForest(entries: readonly LineageEntry[]): LineageTree[] {
  const ids = new Set(entries.map((entry) => entry.id));
  const children = childrenIndex(entries);
  const seen = new Set<string>();
  return entries
    .filter((entry) => entry.parentSession === undefined || !ids.has(entry.parentSession))
    .sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id))
    .map((root) => treeOf(root, children, seen));
}
