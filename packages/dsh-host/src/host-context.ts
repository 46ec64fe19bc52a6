/** @module `HostOptions` and the `HostContext` every host operation takes: the store, options, live entries, watchers, idempotency keys, versions read. */
import type { FormatVersion, SessionEvent } from 'dsh-codec';
import type { Agent, AgentDelta, CheckpointStore, Model, Tool } from 'dsh-agent';
import type { Session, SessionStore } from 'dsh-session';
import type { HttpAppOptions } from './http-app-options.js';
import type { ForkResult, HostLogger, TelemetrySink } from './host-types.js';
import type { HostWorktrees } from './operations/host-worktrees.js';

/** Options of `createHost`. Only `store` is required; the model defaults to the offline keyless one. */
export type HostOptions = {
  store: SessionStore;
  model?: Model;
  /** Every tool the host offers; a session's `config.tools` narrows it (availability). */
  tools?: readonly Tool[];
  /** Receives each lifecycle's events from its `firstLifecycleSeq`. */
  telemetry?: TelemetrySink;
  logger?: HostLogger;
  /** System prompt of sessions that record none (`agent/system-prompt`); default: dsh's prompt for the session's cwd and tools. */
  system?: string;
  /** Model requests per turn before it ends `max-steps` (default 25). */
  maxSteps?: number;
  /**
   * Working directory (workspace) of sessions whose config and header name none. Without it such a
   * session has no workspace: its tool calls are refused `NO_WORKSPACE`, never run in `process.cwd()`.
   */
  cwd?: string;
  /**
   * Resolves the model a session recorded (`session/config.model`) when it is not `model`'s name, so
   * a resumed session runs on its own model; without it `model` answers every session.
   */
  resolveModel?: (spec: string) => Promise<Model>;
  /**
   * The data folder's workspace store (`openWorkspaceStore` from dsh-workspace): each live session
   * with a cwd is checkpointed at turn start and after each call that is not read-only (SPEC §23), a
   * fork child keeps its parent's checkpoints, a deleted session's are released. Omitted: none.
   */
  checkpoints?: HostCheckpointStore;
  /**
   * `true`: every session this host creates or forks (`create`, `query`, `fork`, `peers` and their
   * routes) stores `checkpoints: false` in its config (SPEC §23), so a later resume by any path takes
   * none; a request's own `checkpoints` wins. `dsh`, `dsh peers` and `dsh serve` set it for `--no-checkpoints`.
   */
  noCheckpoints?: boolean;
  /**
   * The data folder's worktree maker (`openWorktrees` from dsh-workspace): `worktree: true` on
   * `host.fork` / `host.peers` (and their routes) gives each child its own directory holding the
   * workspace at the cut; a deleted session's directories go with it. Omitted: `WORKTREES_UNAVAILABLE`.
   */
  worktrees?: HostWorktrees;
  /** Options of the in-process HTTP handler behind `host.fetch` (body limit, logger). */
  http?: Omit<HttpAppOptions, 'token'>;
  /**
   * Sessions live at once (default 128): each holds its lease and a descriptor. One more closes the
   * idle one used longest ago, or, when every one runs a turn or has input queued, is `TOO_MANY_SESSIONS`.
   */
  maxLiveSessions?: number;
  /** A live session with nothing running or queued for this long (default 300,000 ms) is closed; its next request reopens it. */
  idleSessionMs?: number;
};

/**
 * A session live in this host: its open `Session`, the `Agent` running it, its event subscription, and
 * when a request or an event last touched it (what the idle close measures). @internal
 */
export type LiveEntry = { session: Session; agent: Agent; unsubscribe: () => void; usedAt: number };

/**
 * Everything a host's operations share, passed explicitly to each operation module
 * (`session-registry.ts`, `observe-session.ts`, `fork-requests.ts`, …) instead of closed over.
 * @internal
 */
export type HostContext = {
  readonly store: SessionStore;
  readonly options: HostOptions;
  readonly logger: HostLogger;
  readonly model: Model;
  /** Sessions live in this host, by id. */
  readonly live: Map<string, LiveEntry>;
  /** Opens in flight, so two callers of a cold session share one `store.open`. */
  readonly opening: Map<string, Promise<LiveEntry>>;
  /** Event watchers per session id (SSE), fed by `emitEvent`. */
  readonly listeners: Map<string, Set<(event: SessionEvent) => void>>;
  /** Live delta watchers per session id: ephemeral, so nothing is replayed to a late subscriber. */
  readonly deltaListeners: Map<string, Set<(delta: AgentDelta) => void>>;
  /** Remembered idempotent fork requests by key (oldest forgotten first). */
  readonly idempotent: Map<string, { fingerprint: string; result: Promise<ForkResult> }>;
  /**
   * The version each session's file had when this host first opened it: opening a legacy log
   * rewrites its header as the current version, yet the session was still read from the older format.
   */
  readonly readFrom: Map<string, FormatVersion>;
  /** Live sessions being closed (idle, evicted, released): an open of the same id waits for its lease. */
  readonly closingLive: Map<string, Promise<void>>;
  /** The bounds on live sessions (`maxLiveSessions`, `idleSessionMs`) and the slots taken by sessions about to go live. */
  readonly liveLimits: { readonly max: number; readonly idleMs: number; reserved: number };
  /** The timer that closes idle live sessions; running only while some session is live. */
  idleSweep: NodeJS.Timeout | undefined;
  /** Set by `host.close()`; every later operation is refused. */
  closed: boolean;
};

/**
 * What the host needs of a workspace store (`openWorkspaceStore` from dsh-workspace is one), typed by
 * shape so dsh-host depends on no store (SPEC §2): checkpoints for live sessions, a fork child keeping
 * its parent's, a deleted session's released, and the paths that differ between a checkpoint and a
 * directory's files now (a fork child's stale-files note).
 */
export type HostCheckpointStore = CheckpointStore & {
  inherit(childId: string, parentId: string): Promise<void>;
  release(sessionId: string): Promise<void>;
  diff(from: string, to: { cwd: string }): Promise<{ changes: readonly { path: string; change: string }[] }>;
};
