/**
 * @module own-directory
 * "Fork here" and the peers form ask the host for each child's own directory holding the files at the
 * cut (`worktree: true`, SPEC §23). A source with no checkpoint at the cut outside git (a recording
 * made before checkpoints) has no files to give: the child is then forked into the shared folder, and
 * the page says so.
 */
import { api, ApiError } from './api.js';

/** Refusals after which the fork is made without its own directory (nothing was created). */
const SHARED_FALLBACK = new Set(['NOT_A_GIT_REPOSITORY', 'WORKTREES_UNAVAILABLE']);

/**
 * Runs `attempt(true)` when `sourceId` has a workspace checkpoint at or before `atSeq` (any, when
 * omitted), else `attempt(false)`; on a refusal above, `attempt(false)` too, and why the child shares the folder.
 */
export async function withOwnDirectory<T>(
  sourceId: string,
  atSeq: number | undefined,
  attempt: (worktree: boolean) => Promise<T>,
): Promise<{ result: T; shared?: string }> {
  const { events } = await api.observe(sourceId);
  const checkpointed = events.some((event) => event.type === 'workspace/checkpoint' && (atSeq === undefined || event.seq <= atSeq));
  if (!checkpointed)
    return {
      result: await attempt(false),
      shared: 'no own directory (no workspace checkpoint at the cut): it works in the shared folder.',
    };
  try {
    return { result: await attempt(true) };
  } catch (error) {
    if (!(error instanceof ApiError) || !SHARED_FALLBACK.has(error.code)) throw error;
    return { result: await attempt(false), shared: `no own directory (${error.message}): it works in the shared folder.` };
  }
}
