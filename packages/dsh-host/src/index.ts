/**
 * @module dsh-host
 * Hosts live and cold dsh sessions: fork-point selection over immutable observations, names,
 * lineage, telemetry, a Claude-Agent-SDK-shaped `query()` and the HTTP + SSE API.
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
  SessionListItem,
  SessionStatus,
  TelemetrySink,
} from './host-types.js';
export type { QueryStart } from './host-types.js';
export { HostError, type HostErrorDetails, type LeaseHolderInfo } from './host-error.js';
export { HOST_ERROR_CODES, httpStatusOf, wireCodeOf, type HostErrorCode, type HostErrorRow } from './host-error-codes.js';
export { selectForkCut } from './operations/select-fork-cut.js';
/** The one way transcripts get into a store (CLI `dsh import`, `host.importTranscripts`, `POST /api/import`). */
export {
  importIntoStore,
  type ImportedFile,
  type ImportedSessionSummary,
  type ImportInput,
  type ImportIntoStoreOptions,
  type ImportReport,
} from './operations/import-into-store.js';
export { defaultPeerNames } from './operations/default-peer-names.js';
export { lineageOf, sessionForest, type Lineage, type LineageEntry, type LineageNode, type LineageTree } from './operations/lineage.js';
export { resolveSessionRef, type NamedEntry } from './operations/resolve-session-ref.js';
export { createHttpApp, INTERNAL_ERROR_BODY } from './http/create-http-app.js';
export type { HttpAppOptions } from './http-app-options.js';
export { checkRequest, httpGuard, type HttpGuardOptions } from './http/http-guard.js';
export { openApiDocument } from './http/openapi-document.js';
export { serveHost, type HostServer, type ServeOptions } from './http/serve-host.js';
export type { ConnectionLimits } from './http/bounded-http-server.js';

// What an app needs to build a host and read its failures without importing the lower layers (apps
// may not: the layer table), and nothing else: test doubles and the default model come from
// dsh-agent. Who uses each export: packages/dsh-host/README.md.
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
