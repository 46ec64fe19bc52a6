/**
 * @module take-checkpoint
 * A session's checkpoint: the workspace captured within its budget, and the tree kept alive on the
 * session's keep-list until the session is released.
 */
import { appendFileSync } from 'node:fs';
import { WorkspaceError } from '../workspace-error.js';
import { captureTree, type SkippedPath } from './capture-tree.js';
import { describe, sessionListPath, type StoreContext } from './store-context.js';

/** Options of `checkpoint`: whose checkpoint it is, and its limits. */
export type CheckpointOptions = {
  /** The session the checkpoint belongs to: its tree lives until `release(sessionId)`. */
  sessionId: string;
  /** Time budget in ms (default 2000); what does not fit is named in `skipped` as `budget`. */
  budgetMs?: number;
  /** Largest file captured, in bytes (default 50 MiB); larger ones are skipped as `too-large`. */
  maxFileBytes?: number;
  /** Most bytes of changed files hashed by one checkpoint (default 500 MiB); beyond it `budget`. */
  maxNewBytes?: number;
  /** Aborts the checkpoint (it then rejects with the signal's reason). */
  signal?: AbortSignal;
};

/**
 * A checkpoint: its tree id, the paths not captured and why, how long it took, and where its files are
 * (the host's name and the store's folder: recorded in the event, named when another host lacks them).
 */
export type Checkpoint = { tree: string; skipped?: SkippedPath[]; ms: number; host: string; storeDir: string };

const MIB = 1024 * 1024;

/** Captures `cwd` for `sessionId`; `NO_WORKSPACE` for a missing cwd, `GIT_NOT_FOUND` without git. */
export async function takeCheckpoint(context: StoreContext, host: string, cwd: string, options: CheckpointOptions): Promise<Checkpoint> {
  if (typeof options.sessionId !== 'string' || options.sessionId === '')
    throw new WorkspaceError('INVALID_OPTION', `Expected sessionId to be a non-empty string; got ${describe(options.sessionId)}.`);
  const limits = {
    budgetMs: positive('budgetMs', options.budgetMs, 2000),
    maxFileBytes: positive('maxFileBytes', options.maxFileBytes, 50 * MIB),
    maxNewBytes: positive('maxNewBytes', options.maxNewBytes, 500 * MIB),
    signal: options.signal,
  };
  const capture = await captureTree(context, cwd, limits);
  // One short O_APPEND write, synchronous like the capture's other small file operations.
  appendFileSync(sessionListPath(context, options.sessionId), `${capture.tree}\n`);
  const place = { host, storeDir: context.dir };
  return capture.skipped.length === 0
    ? { tree: capture.tree, ms: capture.ms, ...place }
    : { tree: capture.tree, skipped: capture.skipped, ms: capture.ms, ...place };
}

function positive(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
    throw new WorkspaceError('INVALID_OPTION', `Expected ${name} to be a positive number; got ${describe(value)}.`);
  return value;
}
