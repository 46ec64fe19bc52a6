/**
 * @module restore-workspace
 * `dsh restore ID --at N` and `dsh fork --restore` (SPEC §23): the session's cwd set to the workspace
 * at N, after a checkpoint of the current files appended to the session (so `dsh restore ID --at M`
 * undoes it), changing only paths the session's checkpoints know; untracked files are left and listed.
 */
import { join } from 'node:path';
import type { Host, SessionStore } from 'dsh-host/core';
import {
  checkpointTrees,
  openWorkspaceStore,
  WorkspaceError,
  workspaceAt,
  type DiffEntry,
  type EventLike,
  type WorkspaceAtSeq,
} from 'dsh-workspace';
import { CliError } from './cli-error.js';

/** What a restore did: the cut's checkpoint, what changed, what was left, and the seq that undoes it. */
export type WorkspaceRestore = {
  sessionId: string;
  cwd: string;
  atSeq: number;
  checkpointSeq: number;
  changed: DiffEntry[];
  untracked: string[];
  undoSeq: number;
};

/** The session's cwd at seq `at` (latest `session/config` setting one, else the header's). */
export function cwdAt(events: readonly EventLike[], at: number, headerCwd: string | undefined): string | undefined {
  let cwd = headerCwd;
  for (const event of events) {
    if (event.seq > at) break;
    if (event.type !== 'session/config' || typeof event.data !== 'object' || event.data === null) continue;
    const value = (event.data as { cwd?: unknown }).cwd;
    if (typeof value === 'string') cwd = value;
  }
  return cwd;
}

/** The workspace at `atSeq` of a session's events, or `NO_CHECKPOINT` naming the seq. */
export function checkpointAtOrRefuse(events: readonly EventLike[], atSeq: number, sessionId: string): WorkspaceAtSeq {
  const found = workspaceAt(events, atSeq);
  if (found === undefined)
    throw new CliError(
      'NO_CHECKPOINT',
      `${sessionId} has no workspace checkpoint at or before seq ${String(atSeq)}: expected a session whose files were checkpointed.`,
      {
        hint: 'checkpoints are taken at each turn start and after each call that may change files (not with --no-checkpoints)',
      },
    );
  return found;
}

function asCliError(error: unknown): unknown {
  return WorkspaceError.is(error)
    ? new CliError(error.code, error.message, { cause: error, ...(error.hint === undefined ? {} : { hint: error.hint }) })
    : error;
}

/**
 * Restores session `ref`'s cwd to the workspace at `atSeq`. Holds the session's lease throughout
 * (`SESSION_BUSY` while a live writer holds it); the undo checkpoint is durable before a file changes.
 */
export async function restoreWorkspace(
  host: Host,
  store: SessionStore,
  dataDir: string,
  ref: string,
  atSeq: number,
): Promise<WorkspaceRestore> {
  const sessionId = await host.resolve(ref);
  const session = await store.open(sessionId);
  try {
    const observation = await host.observe(sessionId);
    const events = observation.events;
    const target = checkpointAtOrRefuse(events, atSeq, sessionId);
    const last = events.at(-1)?.seq ?? -1;
    const cwd = cwdAt(events, last, observation.header.cwd);
    if (cwd === undefined) throw new CliError('NO_WORKSPACE', `${sessionId} records no working directory: nothing to restore.`);
    const workspaces = openWorkspaceStore({ dir: join(dataDir, '.workspaces.git') });
    try {
      // Files on another host (PostgreSQL shares the log, not the store): refused before the undo checkpoint.
      await workspaces.require(target);
      const now = await workspaces.checkpoint(cwd, { sessionId, budgetMs: 60_000 });
      const undo = session.append(
        'workspace/checkpoint',
        {
          tree: now.tree,
          after: 'restore',
          ...(now.skipped === undefined ? {} : { skipped: now.skipped }),
          ms: now.ms,
          host: now.host,
          storeDir: now.storeDir,
        },
        { ignorable: true },
      );
      await session.flush();
      // Known: the checkpoints before this restore (a file only the undo checkpoint holds is the user's, left alone).
      const restored = await workspaces.restore(target.tree, cwd, { known: checkpointTrees(events) });
      return {
        sessionId,
        cwd,
        atSeq,
        checkpointSeq: target.seq,
        changed: restored.changed,
        untracked: restored.untracked,
        undoSeq: undo.seq,
      };
    } catch (error) {
      throw asCliError(error);
    }
  } finally {
    await session.close();
  }
}
