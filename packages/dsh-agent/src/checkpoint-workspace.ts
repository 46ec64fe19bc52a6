/**
 * @module checkpoint-workspace
 * SPEC §23's checkpoints from the loop's side: the session's working directory captured into a
 * workspace store and recorded as an ignorable `workspace/checkpoint` event right after the event it
 * follows. A checkpoint never fails a turn and never holds it past its budget.
 */
import type { Session } from 'dsh-session';

/** A path a checkpoint did not capture, and why (`too-large`, `budget`, `nested-repository`, …). */
export type CheckpointSkip = { path: string; reason: string };

/**
 * What the loop needs of a workspace store: `openWorkspaceStore(…)` from dsh-workspace is one. Typed
 * here by shape, so dsh-agent depends on no store (SPEC §2); any object with this method works.
 */
export type CheckpointStore = {
  checkpoint(
    cwd: string,
    options: { sessionId: string; budgetMs?: number; signal?: AbortSignal },
  ): Promise<{ tree: string; skipped?: CheckpointSkip[]; ms: number; host?: string; storeDir?: string }>;
};

/** The type of the ignorable event a checkpoint is recorded as. */
export const CHECKPOINT_EVENT = 'workspace/checkpoint';

/** The data of a `workspace/checkpoint` event. */
export type CheckpointRecord = {
  /** The captured file tree, in the data folder's workspace store. */
  tree: string;
  /** What it follows: the `turn/start`, or the `tool/result` of call `callId`. */
  after: 'turn-start' | 'call';
  callId?: string;
  /** Paths not captured, and why. */
  skipped?: CheckpointSkip[];
  ms: number;
  /** The host and workspace store holding the tree (when the store says): another host sharing the log is told where the files are. */
  host?: string;
  storeDir?: string;
};

/** Options of `checkpointWorkspace`. */
export type CheckpointWorkspaceOptions = {
  after: 'turn-start' | 'call';
  /** The call whose `tool/result` the checkpoint follows (with `after: 'call'`). */
  callId?: string;
  /** The directory to capture; default the session's `session/config.cwd`, else its header's `cwd`. */
  cwd?: string;
  /** The checkpoint's budget in ms (default 2000); the wait is cut one second after it. */
  budgetMs?: number;
};

/** One second past the budget a checkpoint still running is abandoned (the turn goes on). */
const HARD_STOP_AFTER_BUDGET_MS = 1000;
/** Stores found without git: checkpoints stay off for them (one warning per process). */
const withoutGit = new WeakSet<CheckpointStore>();
const warned = new Set<string>();

/**
 * Captures the session's working directory into `store` and appends `workspace/checkpoint`
 * (`ignorable: true`). Resolves the record, or undefined when the session has no cwd or the
 * checkpoint could not be taken — then a process warning says why (once per reason), never a throw.
 */
export async function checkpointWorkspace(
  session: Session,
  store: CheckpointStore,
  options: CheckpointWorkspaceOptions,
): Promise<CheckpointRecord | undefined> {
  const cwd = options.cwd ?? session.config?.cwd ?? session.header.cwd;
  if (cwd === undefined || withoutGit.has(store)) return undefined;
  const budgetMs = options.budgetMs ?? 2000;
  let record: CheckpointRecord;
  try {
    const checkpoint = await store.checkpoint(cwd, {
      sessionId: session.id,
      budgetMs,
      signal: AbortSignal.timeout(budgetMs + HARD_STOP_AFTER_BUDGET_MS),
    });
    record = {
      tree: checkpoint.tree,
      after: options.after,
      ...(options.callId === undefined ? {} : { callId: options.callId }),
      ...(checkpoint.skipped === undefined ? {} : { skipped: checkpoint.skipped }),
      ms: checkpoint.ms,
      ...(checkpoint.host === undefined ? {} : { host: checkpoint.host }),
      ...(checkpoint.storeDir === undefined ? {} : { storeDir: checkpoint.storeDir }),
    };
  } catch (error) {
    if (errorCode(error) === 'GIT_NOT_FOUND') withoutGit.add(store);
    warnOnce(error, cwd);
    return undefined;
  }
  try {
    session.append(CHECKPOINT_EVENT, record, { ignorable: true });
  } catch (error) {
    // The session closed or its storage refused while the checkpoint ran: the turn reports that itself.
    warnOnce(error, cwd);
    return undefined;
  }
  return record;
}

function warnOnce(error: unknown, cwd: string): void {
  const code = errorCode(error) ?? (error instanceof Error ? error.name : 'Error');
  if (warned.has(code)) return;
  warned.add(code);
  const detail = error instanceof Error ? error.message : String(error);
  const what =
    code === 'GIT_NOT_FOUND'
      ? 'workspace checkpoints are off for this process: git could not be run'
      : `a workspace checkpoint of ${cwd} was not taken`;
  process.emitWarning(`${what} (${code}: ${detail}). Sessions are unaffected.`, { code: 'DSH_CHECKPOINT' });
}

/** The `code` of a store's error (dsh-workspace's `WorkspaceError` has one), read by shape. */
function errorCode(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}
