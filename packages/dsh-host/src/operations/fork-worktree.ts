/**
 * @module fork-worktree
 * `host.fork(ref, { worktree: true })` and `POST …/fork` with `worktree: true` (SPEC §23): one
 * observation gives the cut and the checkpoint at it; the host's worktree maker makes the child's own
 * directory holding that workspace, the child's id recorded first; the child is forked from the same
 * observation with its cwd there, and `workspace: 'at-cut'` when it holds the checkpoint. A kill -9
 * anywhere leaves either both or a record the next such fork cleans (intent before directory before child).
 */
import { randomUUID } from 'node:crypto';
import type { ForkRequest } from 'dsh-codec';
import { PrintableTitle } from 'dsh-session';
import { forkChild } from './fork-child.js';
import { defaultPeerNames } from './default-peer-names.js';
import { HostError } from '../host-error.js';
import type { HostContext } from '../host-context.js';
import type { ForkOptions, ForkResult } from '../host-types.js';
import { cwdAtCut, worktreeError, worktreeInfo, worktreesOf, type HostWorktrees } from './host-worktrees.js';
import { listSessions } from './list-sessions.js';
import { selectForkCut } from './select-fork-cut.js';

/** A directory (and branch) name for a title: letters, digits, `-`, `_` and `.` kept, anything else `-`; `fork` when nothing is left. */
export function worktreeNameOf(title: string): string {
  const name = title
    .normalize('NFKC')
    .replace(/[^A-Za-z0-9_.-]+/g, '-')
    .replace(/\.{2,}/g, '.')
    .replace(/^[-.]+|[-.]+$/g, '')
    .replace(/\.lock$/i, '')
    .slice(0, 64)
    .replace(/[-.]+$/g, '');
  return name === '' ? 'fork' : name;
}

/** `INVALID_OPTION` for a request that chooses the child's directory twice. */
export function refuseCwdWithWorktree(config: { cwd?: string } | undefined, what: string): void {
  if (config?.cwd === undefined) return;
  throw new HostError(
    'INVALID_OPTION',
    `${what} has worktree: true and config.cwd: both choose the child's directory; expected one of them.`,
  );
}

/** Cleans what a fork killed mid-way left (its child absent, its process gone); a failure here is logged, never the fork's. */
export async function cleanWorktreeOrphans(context: HostContext, worktrees: HostWorktrees, ids: ReadonlySet<string>): Promise<void> {
  await worktrees
    .cleanOrphans((id) => ids.has(id) || context.live.has(id))
    .catch((error: unknown) => {
      context.logger.error('Cleaning the directories of forks that never finished failed', error);
    });
}

/** @internal */
export async function forkInWorktree(
  context: HostContext,
  sourceId: string,
  forkOptions: ForkOptions,
  forkRequest?: ForkRequest,
): Promise<ForkResult> {
  const worktrees = worktreesOf(context.options.worktrees);
  refuseCwdWithWorktree(forkOptions.config ?? forkOptions.configPatch, 'The fork request');
  const source = await context.store.observe(sourceId);
  const cut = selectForkCut(source.events, forkOptions.atSeq);
  const sessions = await listSessions(context);
  const requested = PrintableTitle.is(forkOptions.title) ? forkOptions.title.text : forkOptions.title;
  const taken = new Set(sessions.flatMap((item) => (item.title === undefined ? [] : [item.title])));
  const [fallback = sourceId] = defaultPeerNames(sessions.find((item) => item.id === sourceId)?.title ?? sourceId, taken, 1);
  const id = forkOptions.id ?? randomUUID();
  await cleanWorktreeOrphans(context, worktrees, new Set(sessions.map((item) => item.id)));
  let made;
  try {
    made = await worktrees.prepare({
      sourceId,
      sourceCwd: cwdAtCut(source.events, cut) ?? source.header.cwd ?? context.options.cwd,
      checkpoint: worktrees.workspaceAt(source.events, cut),
      name: worktreeNameOf(requested ?? fallback),
      childId: id,
    });
  } catch (error) {
    throw worktreeError(error);
  }
  const config = forkOptions.config === undefined ? undefined : { ...forkOptions.config, cwd: made.dir };
  try {
    const result = await forkChild(
      context,
      source,
      sourceId,
      {
        ...forkOptions,
        // A cut of -1 (inherit nothing) is no seq to name: the same rule selects it again on the same observation.
        ...(cut === -1 ? {} : { atSeq: cut }),
        id,
        title: forkOptions.title ?? fallback,
        ...(config === undefined ? { configPatch: { ...forkOptions.configPatch, cwd: made.dir } } : { config }),
        // The child's files are the checkpoint at the cut: its closers say so (SPEC §23).
        ...(made.workspace === 'checkpoint' ? { workspace: 'at-cut' as const } : {}),
      },
      forkRequest,
    );
    return { ...result, worktree: worktreeInfo(made) };
  } catch (error) {
    await made.undo().catch((undoError: unknown) => {
      context.logger.error(`Removing ${made.dir} after its fork failed failed`, undoError);
    });
    throw error;
  }
}
