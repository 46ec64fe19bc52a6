/**
 * @module workspace-checkpoints
 * The host's side of SPEC §23's checkpoint lifetimes: a fork child keeps its parent's checkpoints, a
 * deleted session's are released. A failure here is logged and never fails the fork or the delete
 * (at worst objects stay longer, or a child's older files need the parent still stored).
 */
import type { HostContext } from '../host-context.js';

/** The child keeps every checkpoint the parent keeps (its inherited events name them). @internal */
export async function inheritCheckpoints(context: HostContext, childId: string, parentId: string): Promise<void> {
  await context.options.checkpoints?.inherit(childId, parentId).catch((error: unknown) => {
    context.logger.error(`Keeping the workspace checkpoints of ${parentId} for its fork ${childId} failed`, error);
  });
}

/** Releases a deleted session's checkpoints; what nothing else keeps is collected. @internal */
export async function releaseCheckpoints(context: HostContext, sessionId: string): Promise<void> {
  await context.options.checkpoints?.release(sessionId).catch((error: unknown) => {
    context.logger.error(`Releasing the workspace checkpoints of deleted session ${sessionId} failed`, error);
  });
}
