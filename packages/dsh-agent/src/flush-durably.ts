/**
 * @module flush-durably
 * `flushDurably`: the agent's flush before a model request, a tool body and a turn's end, which waits
 * through passing storage failures instead of failing the turn (SPEC §27: a live session recovers when storage does).
 */
import { isTransientStorageError, type Session } from 'dsh-session';
import { agentClosed } from './agent-error.js';

/** The first wait after a failed flush and the longest one: doubling in between. */
const FIRST_WAIT_MS = 25;
const MAX_WAIT_MS = 1_000;

/**
 * Resolves true once every event appended to `session` is durable, retrying with a backoff while the
 * storage fails in a way that may pass (a full disk, an unreachable database); false when `cancel`
 * aborts first (nothing may then run that needed the flush). Throws any other failure (a lost lease)
 * as it is, and `AGENT_CLOSED` when `stop` aborts while it waits.
 */
export async function flushDurably(session: Session, stop: AbortSignal, cancel?: AbortSignal): Promise<boolean> {
  let waitMs = FIRST_WAIT_MS;
  for (;;) {
    try {
      await session.flush();
      return true;
    } catch (error) {
      if (!isTransientStorageError(error)) throw error;
      if (stop.aborted) throw agentClosed(session.id, undefined);
      if (cancel?.aborted === true) return false;
      await pause(waitMs, stop, cancel);
      waitMs = Math.min(MAX_WAIT_MS, waitMs * 2);
    }
  }
}

/** Resolves after `ms`, or as soon as one of the signals aborts. */
function pause(ms: number, ...signals: (AbortSignal | undefined)[]): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      for (const signal of signals) signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    for (const signal of signals) signal?.addEventListener('abort', done, { once: true });
  });
}
