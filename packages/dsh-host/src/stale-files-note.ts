/**
 * @module stale-files-note
 * SPEC §23 "Honest to the model" for a fork child WITHOUT the workspace at the cut (it shares the
 * parent's cwd, or names another): a `session/note` in its seed naming the files the inherited
 * history touched (`touched-paths.ts`) that changed since the cut — the checkpoint at the cut compared
 * with the child's files now; with no checkpoint at the cut (or one this host's store lacks), the
 * paths the source's later calls wrote in that same cwd. Nothing to name: no note
 * (docs/decisions/2026-12-07-stale-files-note.md).
 */
import { resolve } from 'node:path';
import { workspaceStaleNote, type CoreEventDataMap, type SessionConfig, type SessionEvent, type SessionNoteData } from 'dsh-codec';
import { findEvents, selectForkCut, type LATEST_CLOSED_TURN, type SessionObservation } from 'dsh-session';
import type { HostContext } from './host-context.js';
import { toolCallPaths, touchedBy } from './touched-paths.js';

/** What decides a child's note: its config (whole or patched over the one at the cut) and whether its files are the workspace at the cut. */
export type StaleNoteChild = { config?: SessionConfig; configPatch?: SessionConfig; workspace?: 'at-cut' };

/** What the source's history says, read once per observation and cut. */
type History = {
  /** The cwd the inherited history ran in (the latest config at or before the cut naming one, else the header's). */
  cwd: string | undefined;
  touched: ReadonlySet<string>;
  /** The tree of the latest checkpoint at or before the cut. */
  tree: string | undefined;
  /** Paths named by the source's calls after the cut that are not read-only. */
  writtenAfter: readonly string[];
};

const OBJECT_ID = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

/**
 * The notes of each child forked from `source` at `atSeq` (the cut `store.fork` takes), one function
 * for all of them (`host.peers`): the history is read once, by type (tool calls, configs, the latest
 * checkpoint), never decoded whole. Undefined when the host has no checkpoint store (it keeps no
 * record of files) or the child is told nothing; a failure of the store is logged and falls back.
 * @internal
 */
export function staleFilesNotes(
  context: HostContext,
  source: SessionObservation,
  atSeq: number | typeof LATEST_CLOSED_TURN,
): (child: StaleNoteChild) => Promise<SessionNoteData[] | undefined> {
  let history: History | undefined | null;
  return async (child) => {
    const store = context.options.checkpoints;
    if (store === undefined || child.workspace === 'at-cut') return undefined;
    if (history === undefined) history = readHistory(source, selectForkCut(source, atSeq, source.sessionId), context.options.cwd);
    if (history === null) return undefined;
    const childCwd =
      child.config !== undefined ? (child.config.cwd ?? source.header.cwd ?? context.options.cwd) : (child.configPatch?.cwd ?? history.cwd);
    if (childCwd === undefined) return undefined;
    const stale = new Set<string>();
    let compared = false;
    if (history.tree !== undefined) {
      try {
        const diff = await store.diff(history.tree, { cwd: childCwd });
        for (const { path, change } of diff.changes) {
          if (touchedBy(history.touched, path, change === 'added' || change === 'deleted')) stale.add(path);
        }
        compared = true;
      } catch (error) {
        context.logger.error(
          `Comparing the files of ${childCwd} with the checkpoint at the cut of ${source.sessionId} failed; the note names the paths its later calls wrote`,
          error,
        );
      }
    }
    if (!compared) {
      // Without the files at the cut only the source's own later writes are known changes, and only in its own cwd.
      if (history.cwd === undefined || resolve(childCwd) !== resolve(history.cwd)) return undefined;
      for (const path of history.writtenAfter) if (touchedBy(history.touched, path, true)) stale.add(path);
    }
    if (stale.size === 0) return undefined;
    return [workspaceStaleNote([...stale].sort())];
  };
}

/** The history at `cut`, or null when it touched no file (nothing can be stale). */
function readHistory(source: SessionObservation, cut: number, hostCwd: string | undefined): History | null {
  if (cut < 0) return null;
  const configs = findEvents(source, ['session/config'], { before: cut + 1 });
  const cwd = configs.findLast((event) => typeof configCwd(event) === 'string');
  const historyCwd = (cwd === undefined ? undefined : configCwd(cwd)) ?? source.header.cwd ?? hostCwd;
  const touched = new Set<string>();
  const writtenAfter: string[] = [];
  for (const call of findEvents(source, ['tool/call'])) {
    if (call.seq <= cut) for (const path of toolCallPaths(call, historyCwd)) touched.add(path);
    else if ((call.data as CoreEventDataMap['tool/call']).effect !== 'read-only') writtenAfter.push(...toolCallPaths(call, historyCwd));
  }
  if (touched.size === 0) return null;
  const [checkpoint] = findEvents(source, ['workspace/checkpoint'], { before: cut + 1, latest: 1 });
  const tree = (checkpoint?.data as { tree?: unknown } | undefined)?.tree;
  return { cwd: historyCwd, touched, tree: typeof tree === 'string' && OBJECT_ID.test(tree) ? tree : undefined, writtenAfter };
}

function configCwd(event: SessionEvent): string | undefined {
  const cwd = event.type === 'session/config' ? (event.data as SessionConfig).cwd : undefined;
  return typeof cwd === 'string' ? cwd : undefined;
}
