/**
 * @module delete-session
 * `host.delete`: removes a stored session. A session live in this host is released first when it is
 * idle (no running turn, no queued input); one that is running a turn, or is held by another
 * process, is refused `SESSION_BUSY`, so a delete never cuts a turn short. Its workspace checkpoints
 * are released with it.
 */
import { HostError } from '../host-error.js';
import type { HostContext } from '../host-context.js';
import { resolveRef } from './list-sessions.js';
import { assertOpen, release } from './session-registry.js';
import { releaseCheckpoints } from './workspace-checkpoints.js';

/** Deletes `ref` (id or name); `SESSION_BUSY` while a turn runs here or another process holds it. @internal */
export async function deleteSession(context: HostContext, ref: string): Promise<{ sessionId: string }> {
  assertOpen(context);
  const sessionId = await resolveRef(context, ref);
  await context.opening.get(sessionId)?.catch(() => undefined);
  const entry = context.live.get(sessionId);
  if (entry !== undefined) {
    const queued = entry.agent.pendingInputs().length;
    if (entry.agent.running || queued > 0) {
      const doing = entry.agent.running ? 'is running a turn' : `has ${String(queued)} queued input(s)`;
      throw new HostError(
        'SESSION_BUSY',
        `Session ${sessionId} ${doing} in this host: cancel it (POST /api/sessions/${sessionId}/cancel) or wait for it to end, then delete it.`,
      );
    }
    await release(context, sessionId);
  }
  // Closed a moment ago (idle, or evicted for another session): its lease is given back first.
  await context.closingLive.get(sessionId)?.catch(() => undefined);
  await context.store.delete(sessionId);
  await releaseCheckpoints(context, sessionId);
  // The directory the host's worktree maker made for it (`worktree: true`) goes with it.
  await context.options.worktrees?.removeFor(sessionId).catch((error: unknown) => {
    context.logger.error(`Removing the directory made for deleted session ${sessionId} failed`, error);
  });
  return { sessionId };
}
