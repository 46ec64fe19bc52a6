/**
 * @module workspace-at
 * SPEC §23's "workspace at seq N": the latest `workspace/checkpoint` event with seq ≤ N, read from
 * plain events (inherited ones included), so every fork, restore and diff path picks the same one.
 */
import type { SkippedPath } from './store/capture-tree.js';

/** What `workspaceAt` reads of an event: any event type of any format version fits. */
export type EventLike = { readonly seq: number; readonly type: string; readonly data?: unknown };

/**
 * A checkpoint found in a session's events: its seq, tree, the HEAD it was taken at, skipped paths, and
 * the host and store folder holding its files (each when recorded).
 */
export type WorkspaceAtSeq = { seq: number; tree: string; head?: string; skipped?: SkippedPath[]; host?: string; storeDir?: string };

const OBJECT_ID = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

/** The checkpoint a `workspace/checkpoint` event records, or undefined when it is not one. */
export function checkpointOf(event: EventLike): WorkspaceAtSeq | undefined {
  if (event.type !== 'workspace/checkpoint' || typeof event.data !== 'object' || event.data === null) return undefined;
  const data = event.data as Record<string, unknown>;
  if (typeof data.tree !== 'string' || !OBJECT_ID.test(data.tree)) return undefined;
  const found: WorkspaceAtSeq = { seq: event.seq, tree: data.tree };
  if (typeof data.head === 'string' && OBJECT_ID.test(data.head)) found.head = data.head;
  if (Array.isArray(data.skipped) && data.skipped.length > 0) found.skipped = data.skipped as SkippedPath[];
  if (typeof data.host === 'string' && data.host !== '') found.host = data.host;
  if (typeof data.storeDir === 'string' && data.storeDir !== '') found.storeDir = data.storeDir;
  return found;
}

/** The workspace at seq `atSeq`: the latest checkpoint with seq ≤ `atSeq`, or undefined when there is none. */
export function workspaceAt(events: readonly EventLike[], atSeq: number): WorkspaceAtSeq | undefined {
  let found: WorkspaceAtSeq | undefined;
  for (const event of events) {
    if (event.seq > atSeq) break;
    found = checkpointOf(event) ?? found;
  }
  return found;
}

/** Every checkpoint tree in `events` (what a restore may change: the paths these trees hold), first to last, each once. */
export function checkpointTrees(events: readonly EventLike[]): string[] {
  const trees = new Set<string>();
  for (const event of events) {
    const found = checkpointOf(event);
    if (found !== undefined) trees.add(found.tree);
  }
  return [...trees];
}
