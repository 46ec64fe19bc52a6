/**
 * @module dsh-host/core
 * The host without its HTTP face and transcript import: what a process that builds a host to fork,
 * list, observe or run a session needs (the CLI's commands but `dsh serve` and `dsh import`). The main
 * entry `dsh-host` exports every name here too; this entry loads neither hono nor dsh-import's readers
 * (`host.fetch` and `host.importTranscripts` load theirs on first use), so a command starts in fewer
 * modules (SPEC §24: the CLI path costs what the store costs).
 */
export { createHost, type HostOptions } from './create-host.js';
export type { HostCheckpointStore } from './host-context.js';
export type { HostWorktrees, HostWorktreeCheckpoint, HostSkippedPath, WorktreeInfo } from './operations/host-worktrees.js';
export type {
  EventWatch,
  ForkOptions,
  ForkResult,
  Host,
  HostLogger,
  Observation,
  PeerRequest,
  PeersOptions,
  PeersResult,
  QueryOptions,
  QueryResult,
  QueryStart,
  SessionListItem,
  SessionStatus,
  TelemetrySink,
} from './host-types.js';
export { HostError, type HostErrorDetails, type LeaseHolderInfo } from './host-error.js';
export { HOST_ERROR_CODES, httpStatusOf, wireCodeOf, type HostErrorCode, type HostErrorRow } from './host-error-codes.js';
export { selectForkCut } from './operations/select-fork-cut.js';
export { defaultPeerNames } from './operations/default-peer-names.js';
export { lineageOf, sessionForest, type Lineage, type LineageEntry, type LineageNode, type LineageTree } from './operations/lineage.js';
export { resolveSessionRef, type NamedEntry } from './operations/resolve-session-ref.js';
export {
  createMemoryStore,
  findEvents,
  materializeLogFile,
  openSessionStore,
  rewriteLogFile,
  SessionError,
  type SessionStore,
} from 'dsh-session';
export {
  AgentError,
  canonicalModelSpec,
  defaultModelSpec,
  defineTool,
  demoTools,
  deriveHistory,
  resolveModel,
  type AgentDelta,
  type Model,
  type Tool,
} from 'dsh-agent';
