/** @module `forkChild`: one `store.fork` of a source (its id or one observation of it), with its stale-files note, the child published live and keeping its parent's checkpoints. */
import type { ForkRequest } from 'dsh-codec';
import { LATEST_CLOSED_TURN, type SessionObservation } from 'dsh-session';
import type { HostContext } from '../host-context.js';
import type { ForkOptions, ForkResult } from '../host-types.js';
import { openLive } from './session-registry.js';
import { staleFilesNotes } from './stale-files-note.js';
import { withStoredCheckpointsChoice } from './stored-checkpoints-choice.js';
import { inheritCheckpoints } from './workspace-checkpoints.js';

/**
 * Forks `source` (the id, or an observation the caller already read) with `forkOptions`; the store
 * persists the whole seed before returning, and only then does the child go live (in a slot taken first).
 * @internal
 */
export async function forkChild(
  context: HostContext,
  source: string | SessionObservation,
  sourceId: string,
  forkOptions: ForkOptions,
  forkRequest?: ForkRequest,
): Promise<ForkResult> {
  const atSeq = forkOptions.atSeq ?? LATEST_CLOSED_TURN;
  // With a checkpoint store, the source is observed here (unless the caller did), so the child's stale-files note is read from the observation it is forked from;
  // a child whose files are the workspace at the cut gets no note, so nothing is observed for it (SPEC §24).
  const noNote = context.options.checkpoints === undefined || forkOptions.workspace === 'at-cut';
  const observed = typeof source !== 'string' || noNote ? source : await context.store.observe(sourceId);
  const notes = typeof observed === 'string' ? undefined : await staleFilesNotes(context, observed, atSeq)(forkOptions);
  // The host's `noCheckpoints` is stored in the child's config (what it replaces, else what is merged over the inherited one).
  const config = forkOptions.config === undefined ? undefined : withStoredCheckpointsChoice(context, forkOptions.config);
  const configPatch = config === undefined ? withStoredCheckpointsChoice(context, forkOptions.configPatch) : undefined;
  const { session: child } = await openLive(context, () =>
    context.store.fork(observed, {
      atSeq,
      ...(forkOptions.id === undefined ? {} : { id: forkOptions.id }),
      ...(forkOptions.title === undefined ? {} : { title: forkOptions.title }),
      ...(config === undefined ? {} : { config }),
      ...(configPatch === undefined ? {} : { configPatch }),
      ...(forkOptions.workspace === undefined ? {} : { workspace: forkOptions.workspace }),
      ...(notes === undefined ? {} : { notes }),
      ...(forkRequest === undefined ? {} : { forkRequest }),
    }),
  );
  await inheritCheckpoints(context, child.id, sourceId);
  const cut = child.header.forkCut ?? -1;
  return { sessionId: child.id, parentSession: sourceId, forkCut: cut, inheritedEventCount: child.inheritedEventCount };
}
