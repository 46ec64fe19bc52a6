/** @module The public types of dsh-host: `Host`, its options and results, observations and list items. */
import type { FormatVersion, SessionConfig, SessionEvent, SessionHeader } from 'dsh-codec';
import type { AgentDelta, CompactionResult } from 'dsh-agent';
import type { PrintableTitle } from 'dsh-session';
import type { ImportInput, ImportIntoStoreOptions, ImportReport } from './operations/import-into-store.js';
import type { Lineage } from './operations/lineage.js';
import type { WorktreeInfo } from './operations/host-worktrees.js';

/**
 * One immutable view of a session's log, taken at one moment: what HTTP returns for a session and
 * what a fork selects its cut from. `pendingInputs` are this lifecycle's unclaimed `input/queued` events.
 */
export type Observation = {
  header: SessionHeader;
  events: readonly SessionEvent[];
  firstLifecycleSeq: number;
  live: boolean;
  needsRepair: boolean;
  pendingInputs: readonly SessionEvent[];
  /**
   * The format version the stored log was read from: for a session this host opened, the version its
   * file had when this host first opened it (opening rewrites a legacy header as the current version); else the version
   * it is stored in now. A session this host created or forked is 4.
   */
  formatVersion: FormatVersion;
  /** Latest `session/title`, if any. */
  title?: string;
  /** Working directory: the latest `session/config` cwd, else the header's. */
  cwd?: string;
  /** Other live sessions of this host with the same `cwd`: forks share history, not files. */
  sharesCwdWith: string[];
};

/** `live`: running a turn or idle in this host; `stored`: cold; `busy`: another process holds it. */
export type SessionStatus = 'running' | 'idle' | 'stored' | 'needs-repair' | 'busy';

/** One row of `host.list()` and `GET /api/sessions`. */
export type SessionListItem = {
  id: string;
  title?: string;
  parentSession?: string;
  forkCut?: number;
  createdAt: number;
  updatedAt: number;
  lastSeq: number;
  live: boolean;
  status: SessionStatus;
  /** The format version the log was read from, as in `Observation.formatVersion`. */
  formatVersion: FormatVersion;
  cwd?: string;
  sharesCwdWith: string[];
};

/** What `host.fork()` and `POST /api/sessions/:id/fork` return. */
/** What `onStart` receives: the session and what its turn runs with, before the prompt is queued. */
export type QueryStart = { sessionId: string; cwd?: string; model: string; tools: string[] };

export type ForkResult = {
  sessionId: string;
  parentSession: string;
  forkCut: number;
  inheritedEventCount: number;
  /** With `worktree: true`: the child's own directory (its cwd) and what it holds. */
  worktree?: WorktreeInfo;
};

/** Options of `host.fork()`; `atSeq` omitted selects the latest closed turn and its standalone tail. */
export type ForkOptions = {
  atSeq?: number;
  id?: string;
  /** The child's title: a string is checked by the store, a `PrintableTitle` (dsh-session) was checked where it entered. */
  title?: string | PrintableTitle;
  /** Replaces the config the child inherits at the cut. */
  config?: SessionConfig;
  /** Merged over the config the child inherits at the cut (e.g. only a new `cwd`); ignored with `config`. */
  configPatch?: SessionConfig;
  /** Repeating a fork with the same key returns the first child instead of creating another. */
  idempotencyKey?: string;
  /**
   * `'at-cut'` when the child's cwd holds exactly the workspace at the cut (a `--worktree` fork at a
   * checkpoint): the closer of each call open at the cut tells the model its files are as they were
   * before the call started (SPEC §23, format V6).
   */
  workspace?: 'at-cut';
  /**
   * The child gets its own directory holding the workspace at the cut, made by the host's worktree
   * maker (`HostOptions.worktrees`; without one `WORKTREES_UNAVAILABLE`): its cwd, named by the title
   * (default `<parent>-N`), forked with `workspace: 'at-cut'` when it holds a checkpoint (SPEC §23).
   * Not with `config.cwd` / `configPatch.cwd`.
   */
  worktree?: boolean;
};

/**
 * One peer of `host.peers()`: its first prompt, and optionally its name (a string is checked by the
 * host, a `PrintableTitle` was checked where it entered) and config (merged over the baseline's at the cut).
 */
export type PeerRequest = {
  prompt: string;
  title?: string | PrintableTitle;
  config?: SessionConfig;
  /** The peer's id (default: a new one). */
  id?: string;
  /** `'at-cut'` when the peer's cwd holds exactly the workspace at the cut: a call open at the cut is told so (SPEC §23). */
  workspace?: 'at-cut';
};

/**
 * Options of `host.peers()`; `atSeq` omitted selects the latest closed turn and its standalone tail, as
 * `fork` does. `worktree: true`: every peer gets its own directory holding the workspace at the cut
 * (as `ForkOptions.worktree`; not with a peer's `config.cwd`).
 */
export type PeersOptions = { atSeq?: number; peers: readonly PeerRequest[]; worktree?: boolean };

/** What `host.peers()` returns: the baseline id, the one cut every peer was forked at, and each peer in request order. */
export type PeersResult = {
  baseline: string;
  cut: number;
  /**
   * `inputId` is the peer's queued prompt (wait for its turn with `host.turnResult`); `cwd` where its
   * tools run (undefined when it has no workspace: its tools are then refused `NO_WORKSPACE`).
   */
  peers: { sessionId: string; title: string; inputId: string; cwd: string | undefined; worktree?: WorktreeInfo }[];
};

/** Receives every event of each lifecycle from its `firstLifecycleSeq`; a throwing sink is logged, never fatal. */
export type TelemetrySink = (event: SessionEvent, context: { sessionId: string }) => void;

/** The host's messages about failures it survives (a throwing sink, an unknown HTTP error). */
export type HostLogger = { error(message: string, error?: unknown): void };

/** A session's events from a seq, then live ones as they are appended, until `close()`. */
export type EventWatch = { close(): void };

/** `host.query()` options, shaped like the Claude Agent SDK's `query()` options. */
export type QueryOptions = {
  prompt: string;
  /** Live `{ turn, step, text?, reasoning? }` pieces of the model's streaming answers while this query runs (never persisted). */
  onDelta?: (delta: AgentDelta) => void;
  /** Id or name of the session to continue (or to fork, with `forkSession`). */
  resume?: string;
  /** With `resume`: run the prompt in a new fork instead of continuing the session. */
  forkSession?: boolean;
  /** With `resume` and `forkSession`: the exact seq to fork at (default: the latest closed turn). */
  resumeSessionAt?: number;
  /** Continue the most recently updated session whose cwd is `cwd` (or the process cwd). */
  continue?: boolean;
  /** Tool availability for a new session or fork: names not listed do not exist for the model. */
  tools?: string[];
  /** Tools removed from what the session (new, resumed or forked) has available, recorded in its config: never looser. */
  disallowedTools?: string[];
  cwd?: string;
  /** Title (name) for a new session or fork; on a resumed session, renames it. */
  title?: string;
  /**
   * Model spec recorded in the session's config (e.g. `keyless`): a new session's, or a switch on a
   * resumed one. Omitted, a resumed session keeps the model it recorded.
   */
  model?: string;
  /**
   * `false`: the session (new, resumed or forked) takes no workspace checkpoints, recorded in its config
   * (`session/config.checkpoints`, SPEC §23) so a later resume keeps it; `true` turns them back on.
   * Omitted, a session keeps what it recorded.
   */
  checkpoints?: boolean;
  /** The id of the new session (or, with `forkSession`, of the fork); `SESSION_EXISTS` if taken. */
  sessionId?: string;
  /** Replaces the session's system prompt (recorded as `agent/system-prompt`, kept on resume). */
  systemPrompt?: string;
  /** Text appended to the system prompt (recorded, kept on resume). */
  appendSystemPrompt?: string;
  /** Called once the session is chosen and configured, just before the prompt is queued. */
  onStart?: (start: QueryStart) => void;
};

/** What one `host.query()` turn produced. `result` is the final assistant text. */
export type QueryResult = {
  sessionId: string;
  result: string;
  isError: boolean;
  parentSession?: string;
  forkCut?: number;
  /** `turn/end` reason kind of the turn that ran. */
  stopReason: string;
  /** Error code of a failed turn, when it has one. */
  errorCode?: string;
  /** The failed turn's message in full (`turn/end.reason.error.message`: the provider's own words for a model failure). */
  errorMessage?: string;
  turn: number;
};

/** The host's operations, shared by the programmatic API and the HTTP routes. Refs are ids or names. */
export interface Host {
  create(options?: { id?: string; title?: string; config?: SessionConfig }): Promise<{ sessionId: string }>;
  /** Every stored session, most recently updated first; `{ busy: true }`: only the live and held ones (no other summary is read). */
  list(options?: { busy?: boolean }): Promise<SessionListItem[]>;
  /** Resolves an id or name (`NAME_AMBIGUOUS` when a name matches several sessions). */
  resolve(ref: string): Promise<string>;
  /**
   * The most recently updated session whose working directory is `cwd` (both resolved to absolute
   * paths, so `/a/b/` matches `/a/b`) — what `query({ continue: true })` and `dsh --continue` pick;
   * `SESSION_NOT_FOUND` if none has it.
   */
  mostRecentForCwd(cwd: string): Promise<string>;
  /** Reads a session without writing: a snapshot if live, else its stored events with no repair applied. */
  observe(ref: string): Promise<Observation>;
  /**
   * Makes a session live (`store.open`: crash repair persisted, `turn/end {kind: "interrupted"}`) and
   * returns its observation; a live session is returned as is. `SESSION_BUSY` if another process holds it.
   */
  open(ref: string): Promise<Observation>;
  /** Queues user input on the session (opening it if cold); a turn claims it. */
  send(ref: string, text: string): Promise<{ inputId: string }>;
  /** Forks from one immutable observation of the source (SPEC §5.4). */
  fork(sourceRef: string, options?: ForkOptions): Promise<ForkResult>;
  /**
   * Forks one peer per request from one observation of the baseline, all at the same cut (SPEC §20),
   * and queues each prompt as its peer's first turn; the turns run concurrently. `NAME_TAKEN` when a
   * requested title is carried by a session or by another peer; omitted titles are `<baseline>-N`.
   */
  peers(baselineRef: string, options: PeersOptions): Promise<PeersResult>;
  /** Resolves when the turn claiming `inputId` (from `send` or `peers`) on a live session ends. */
  turnResult(ref: string, inputId: string): Promise<QueryResult>;
  rename(ref: string, title: string): Promise<void>;
  /** Manual compaction between turns (after the running turn): summarizes the history with the host's model. */
  compact(ref: string): Promise<CompactionResult>;
  /** Cancels the running turn, if any; `cancelled` says whether one was running. */
  cancel(ref: string): Promise<{ cancelled: boolean }>;
  lineage(ref: string): Promise<Lineage>;
  /** Resolves once a live session has no running turn and no queued input (immediately if cold). */
  idle(ref: string): Promise<void>;
  /** Streams events with seq ≥ `from`, stored ones first, then live ones, each exactly once, in order. */
  watch(ref: string, from: number, listener: (event: SessionEvent) => void): Promise<EventWatch>;
  /**
   * Calls `listener` with each live delta `{ turn, step, text?, reasoning? }` of the session's
   * streaming model responses from now on (also once it becomes live); never persisted, never replayed.
   */
  watchDeltas(ref: string, listener: (delta: AgentDelta) => void): Promise<EventWatch>;
  /** Runs one turn (see `QueryOptions`) and resolves when it ends. */
  query(options: QueryOptions): Promise<QueryResult>;
  /**
   * Deletes a stored session (its forks keep their copied history; their lineage shows it missing).
   * A session live here and idle is released first; `SESSION_BUSY` while it runs a turn or has queued
   * input here, or while another process holds it. Resolves with the id deleted.
   */
  delete(ref: string): Promise<{ sessionId: string }>;
  /** Closes a live session (flushing it and releasing its lease); it stays in the store. */
  release(ref: string): Promise<void>;
  /**
   * Imports Claude Code, Codex or pi transcripts into the host's store (`importIntoStore`): every
   * input read first, linked (subagents, Codex forks), then each session stored atomically.
   */
  importTranscripts(inputs: readonly ImportInput[], options?: ImportIntoStoreOptions): Promise<ImportReport>;
  /** The HTTP API (SPEC §10) in-process. */
  fetch(request: Request): Promise<Response>;
  /** Releases every live session. The store stays open: its owner closes it. */
  close(): Promise<void>;
}
