/**
 * @module stale-files-note
 * SPEC §23 "Honest to the model" for a fork child WITHOUT the workspace at the cut (it shares the
 * parent's cwd, or names another): a `session/note` in its seed naming the files the inherited
 * history touched (`touched-paths.ts`) that changed since the cut — the checkpoint at the cut compared
 * with the child's files now; with no checkpoint at the cut (or one this host's store lacks), the
 * paths the source's later calls wrote in that same cwd. Searches by type and for the calls' files are
 * answered from sealed segments' indexes where the source has them (SPEC §24: a fork of a long history
 * reads its cut, not its history). Nothing to name: no note
 * (docs/decisions/2026-12-07-stale-files-note.md).
 */
import { resolve } from 'node:path';
import { workspaceStaleNote, type SessionConfig, type SessionEvent, type SessionNoteData } from 'dsh-codec';
import { findEvents, findFileCalls, selectForkCut, type LATEST_CLOSED_TURN, type SessionObservation } from 'dsh-session';
import type { HostContext } from '../host-context.js';
import { fileCallPaths, touchedAmong, touchedBy, touchedCandidates } from './touched-paths.js';

/** What decides a child's note: its config (whole or patched over the one at the cut) and whether its files are the workspace at the cut. */
export type StaleNoteChild = { config?: SessionConfig; configPatch?: SessionConfig; workspace?: 'at-cut' };

/** What the source's history says at the cut, each part read once (and only when a child needs it). */
class History {
  #touched: ReadonlySet<string> | undefined;
  #asked = 0;
  #writtenAfter: readonly string[] | undefined;

  constructor(
    private readonly source: SessionObservation,
    readonly cut: number,
    /** The cwd the inherited history ran in (the latest config at or before the cut naming one, else the header's). */
    readonly cwd: string | undefined,
    /** The tree of the latest checkpoint at or before the cut. */
    readonly tree: string | undefined,
  ) {}

  /**
   * The paths among `changed` (and the folders above them, and `.`) that the calls at or before the cut
   * name — all `touchedBy` needs to judge `changed`. The first ask keeps only those (a long history names
   * tens of thousands of paths, a note a few); a second (another peer's files) reads the whole touched set once.
   */
  touchedFor(changed: Iterable<string>): ReadonlySet<string> {
    const candidates = touchedCandidates(changed);
    if (this.#touched === undefined && this.#asked++ === 0)
      return touchedAmong(findFileCalls(this.source, { before: this.cut + 1 }), this.cwd, candidates);
    if (this.#touched === undefined) {
      const touched = new Set<string>();
      for (const call of findFileCalls(this.source, { before: this.cut + 1 }))
        for (const path of fileCallPaths(call, this.cwd)) touched.add(path);
      this.#touched = touched;
    }
    const touched = this.#touched;
    return new Set([...candidates].filter((path) => touched.has(path)));
  }

  /** Paths named by the source's calls after the cut that are not read-only (only the tail is read). */
  writtenAfter(): readonly string[] {
    if (this.#writtenAfter === undefined) {
      const written = new Set<string>();
      for (const call of findFileCalls(this.source, { after: this.cut })) {
        if (call.effect !== 'read-only') for (const path of fileCallPaths(call, this.cwd)) written.add(path);
      }
      this.#writtenAfter = [...written];
    }
    return this.#writtenAfter;
  }
}

const OBJECT_ID = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

/**
 * The notes of each child forked from `source` at `atSeq` (the cut `store.fork` takes), one function
 * for all of them (`host.peers`). The history is read by type, never decoded whole, and only as far as
 * needed: the changed files first (the checkpoint at the cut against the child's files, or the source's
 * later writes), the inherited tool calls only when something changed. Undefined when the host has no
 * checkpoint store (it keeps no record of files) or the child is told nothing; a failure of the store is
 * logged and falls back.
 * @internal
 */
export function staleFilesNotes(
  context: HostContext,
  source: SessionObservation,
  atSeq: number | typeof LATEST_CLOSED_TURN,
): (child: StaleNoteChild) => Promise<SessionNoteData[] | undefined> {
  let history: History | null | undefined;
  return async (child) => {
    const store = context.options.checkpoints;
    if (store === undefined || child.workspace === 'at-cut') return undefined;
    history ??= readHistory(source, selectForkCut(source, atSeq, source.sessionId), context.options.cwd);
    if (history === null) return undefined;
    const childCwd =
      child.config !== undefined ? (child.config.cwd ?? source.header.cwd ?? context.options.cwd) : (child.configPatch?.cwd ?? history.cwd);
    if (childCwd === undefined) return undefined;
    const stale = new Set<string>();
    let compared = false;
    if (history.tree !== undefined) {
      try {
        const diff = await store.diff(history.tree, { cwd: childCwd });
        const touched = diff.changes.length === 0 ? new Set<string>() : history.touchedFor(diff.changes.map(({ path }) => path));
        for (const { path, change } of diff.changes) {
          if (touchedBy(touched, path, change === 'added' || change === 'deleted')) stale.add(path);
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
      const written = history.writtenAfter();
      const touched = written.length === 0 ? new Set<string>() : history.touchedFor(written);
      for (const path of written) if (touchedBy(touched, path, true)) stale.add(path);
    }
    if (stale.size === 0) return undefined;
    return [workspaceStaleNote([...stale].sort())];
  };
}

/** The history at `cut`: its cwd and the checkpoint there; null when the child inherits no tool call. */
function readHistory(source: SessionObservation, cut: number, hostCwd: string | undefined): History | null {
  // No call at or before the cut: the inherited history touched no file (one search, one decoded line).
  if (cut < 0 || findEvents(source, ['tool/call'], { before: cut + 1, latest: 1 }).length === 0) return null;
  let cwd: string | undefined;
  // The latest config naming a cwd, searched back from the cut (configs are few).
  for (let before = cut + 1; cwd === undefined;) {
    const [config] = findEvents(source, ['session/config'], { before, latest: 1 });
    if (config === undefined) break;
    cwd = configCwd(config);
    before = config.seq;
  }
  const [checkpoint] = findEvents(source, ['workspace/checkpoint'], { before: cut + 1, latest: 1 });
  const tree = (checkpoint?.data as { tree?: unknown } | undefined)?.tree;
  return new History(source, cut, cwd ?? source.header.cwd ?? hostCwd, typeof tree === 'string' && OBJECT_ID.test(tree) ? tree : undefined);
}

function configCwd(event: SessionEvent): string | undefined {
  const cwd = event.type === 'session/config' ? (event.data as SessionConfig).cwd : undefined;
  return typeof cwd === 'string' ? cwd : undefined;
}
