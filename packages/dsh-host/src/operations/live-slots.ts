/**
 * @module live-slots
 * The bounds on live sessions (SPEC §27): at most `maxLiveSessions` at once, one idle for
 * `idleSessionMs` closed (its lease and descriptor released; the next request reopens it), and one
 * more than the bound closing the idle one used longest ago or refused `TOO_MANY_SESSIONS`.
 */
import { HostError } from '../host-error.js';
import type { HostContext, HostOptions, LiveEntry } from '../host-context.js';

/** Live sessions a host keeps at once unless `maxLiveSessions` says otherwise. */
export const DEFAULT_MAX_LIVE_SESSIONS = 128;
/** How long a live session may sit with nothing running or queued before it is closed, unless `idleSessionMs` says otherwise. */
export const DEFAULT_IDLE_SESSION_MS = 300_000;

/** The checked bounds of `options` (`INVALID_OPTION` for a value that is not a positive integer). @internal */
export function liveLimitsOf(options: HostOptions): { max: number; idleMs: number; reserved: number } {
  return {
    max: positive('maxLiveSessions', options.maxLiveSessions, DEFAULT_MAX_LIVE_SESSIONS),
    idleMs: positive('idleSessionMs', options.idleSessionMs, DEFAULT_IDLE_SESSION_MS),
    reserved: 0,
  };
}

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (Number.isSafeInteger(value) && value > 0) return value;
  throw new HostError('INVALID_OPTION', `${name} expects a positive integer, received ${String(value)}.`);
}

/** Nothing runs and nothing waits in the entry's agent (or it stopped for good): closing it loses no work. */
function isIdle(entry: LiveEntry): boolean {
  return entry.agent.stopped || (!entry.agent.running && entry.agent.pendingInputs().length === 0);
}

/**
 * Takes a slot for one session about to go live; returns the function that gives the reservation
 * back once it is published (or failed). At the bound, closes the idle live session used longest ago;
 * when none can be closed, refuses `TOO_MANY_SESSIONS` (503, `Retry-After`). @internal
 */
export async function takeLiveSlot(context: HostContext, close: (id: string) => Promise<void>): Promise<() => void> {
  const limits = context.liveLimits;
  const tried = new Set<LiveEntry>();
  while (context.live.size + limits.reserved >= limits.max) {
    const candidate = [...context.live.values()]
      .filter((entry) => !tried.has(entry) && isIdle(entry))
      .sort((a, b) => a.usedAt - b.usedAt)[0];
    if (candidate === undefined) {
      throw new HostError(
        'TOO_MANY_SESSIONS',
        `Every one of the ${String(limits.max)} live sessions of this host is running a turn or has input queued: retry once one is idle, or raise maxLiveSessions (dsh serve --max-sessions).`,
      );
    }
    tried.add(candidate);
    await closeIfIdle(context, candidate, 0, close);
  }
  limits.reserved += 1;
  let given = false;
  return () => {
    if (given) return;
    given = true;
    limits.reserved -= 1;
  };
}

/**
 * Closes `entry` if it is still live and idle, and untouched for `idleMs`, once its events are
 * durable (a session whose storage still fails is kept: closing it could not release its lease).
 */
async function closeIfIdle(context: HostContext, entry: LiveEntry, idleMs: number, close: (id: string) => Promise<void>): Promise<void> {
  const ready = () => context.live.get(entry.session.id) === entry && isIdle(entry) && Date.now() - entry.usedAt >= idleMs;
  if (!ready()) return;
  try {
    await entry.session.flush();
  } catch {
    if (!entry.agent.stopped) return;
  }
  if (!ready()) return;
  await close(entry.session.id).catch((error: unknown) => {
    // A stopped session's lease was lost: its close gave back what it held, and nothing more can be written.
    if (!entry.agent.stopped) context.logger.error(`dsh-host: closing idle session ${entry.session.id} failed`, error);
  });
}

/** Keeps the idle sweep running while sessions are live: each tick closes those idle for `idleSessionMs`. @internal */
export function watchIdleSessions(context: HostContext, close: (id: string) => Promise<void>): void {
  if (context.idleSweep !== undefined || context.closed) return;
  const { idleMs } = context.liveLimits;
  const tick = () => {
    if (context.live.size === 0 || context.closed) {
      stopIdleSweep(context);
      return;
    }
    for (const entry of [...context.live.values()]) void closeIfIdle(context, entry, idleMs, close);
  };
  // A quarter of the idle time between ticks: a session is closed within 1.25 × idleSessionMs.
  context.idleSweep = setInterval(tick, Math.min(Math.max(Math.floor(idleMs / 4), 10), 30_000));
  context.idleSweep.unref();
}

/** Stops the idle sweep (the host closed, or no session is live). @internal */
export function stopIdleSweep(context: HostContext): void {
  if (context.idleSweep !== undefined) clearInterval(context.idleSweep);
  context.idleSweep = undefined;
}
