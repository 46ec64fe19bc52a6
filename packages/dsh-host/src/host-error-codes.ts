/** @module The one error table of dsh-host: every code's HTTP status and wire code (`HOST_ERROR_CODES`), from which `HostErrorCode`, the OpenAPI document and the README follow. */
import type { AgentErrorCode } from 'dsh-agent';
import type { ImportErrorCode } from 'dsh-import';
import type { SessionErrorCode } from 'dsh-session';

/**
 * One row of the host's error table: the HTTP status, the code sent on the wire when it differs
 * from the library's (`WRITE_FAILED` reaches clients as `STORAGE_ERROR`), when it happens, and the
 * `Retry-After` an HTTP answer carries, if any.
 */
export type HostErrorRow = {
  readonly status: number;
  readonly when: string;
  readonly sentAs?: string;
  readonly retryAfterSeconds?: number;
};

/** The codes of the lower packages: each must have a row (a missing one fails the type check). */
type PassedThroughCode = SessionErrorCode | AgentErrorCode | ImportErrorCode;

/**
 * Every code a `HostError` carries — the host's own and those passed up from dsh-session (with
 * dsh-codec's) and dsh-agent — with its HTTP status. The code union, the status mapping, the README
 * table and the OpenAPI error responses are all derived from this one table.
 */
export const HOST_ERROR_CODES = {
  // 400: the request or an option is malformed.
  BAD_REQUEST: { status: 400, when: 'malformed JSON body, query or header; `issues` and the message name the field path' },
  INVALID_OPTION: { status: 400, when: 'a bad option (e.g. `resumeSessionAt` without `forkSession`, a non-loopback bind without a token)' },
  INVALID_SESSION_ID: { status: 400, when: 'a child id outside `[A-Za-z0-9_-]{1,128}`' },
  INVALID_MODEL_SPEC: { status: 400, when: 'a model spec other than `keyless`, `scripted:FILE`, `openai:NAME`, `anthropic:NAME`' },
  INVALID_SCRIPT: { status: 400, when: 'a scripted model file that is not the SPEC §11 format' },
  INVALID_FORK_REQUEST: {
    status: 400,
    when: 'a fork request record (idempotency key or digest) that is not 1-255 visible ASCII characters',
  },
  INVALID_BRANCH_NAME: {
    status: 400,
    when: "a `worktree: true` child or peer name that does not make a git branch `dsh/<name>` (or is a folder of another peer's)",
  },
  INVALID_TITLE: { status: 400, when: 'a title or name holding control characters (C0, DEL, C1, line separators, bidi overrides)' },
  // 400: a transcript to import that dsh-import cannot read (the message names the file and line).
  UNKNOWN_FORMAT: { status: 400, when: 'a transcript to import is none of Claude Code, Codex, pi' },
  FORMAT_MISMATCH: { status: 400, when: 'a transcript to import does not fit the `format` asked for' },
  MALFORMED_LINE: { status: 400, when: 'a transcript to import has a line before its last that is not JSON' },
  EMPTY_TRANSCRIPT: { status: 400, when: 'a transcript to import holds no line' },
  // 401/403/415: the HTTP guard.
  UNAUTHORIZED: { status: 401, when: 'missing or wrong bearer token' },
  CROSS_ORIGIN: { status: 403, when: 'a state-changing request from another origin (`Origin` / `Sec-Fetch-Site`)' },
  HOST_NOT_ALLOWED: { status: 403, when: 'a `Host` header that is neither the bound address nor an allowed name (DNS rebinding)' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, when: 'a request body that is not `application/json`' },
  // 404.
  NOT_FOUND: { status: 404, when: 'no such route' },
  SESSION_NOT_FOUND: { status: 404, when: 'no session has that id or name' },
  FILE_NOT_FOUND: { status: 404, when: 'a tool was asked for a file that does not exist' },
  // 409: the session cannot take this now.
  SESSION_EXISTS: { status: 409, when: 'the child id is taken' },
  SESSION_BUSY: { status: 409, when: 'another process holds the session; `holder` names it — fork it instead' },
  NAME_TAKEN: {
    status: 409,
    when: 'a name (`title`) another session already carries: creating, renaming, forking (but the retry of a fork under its Idempotency-Key) or importing with one, or a peer name that a session or another peer of the request carries',
  },
  WORKTREE_EXISTS: { status: 409, when: 'a `worktree: true` child or peer whose directory `DATA/worktrees/<name>` already exists' },
  BRANCH_EXISTS: { status: 409, when: 'a `worktree: true` child or peer whose branch `dsh/<name>` already exists in the repository' },
  NAME_AMBIGUOUS: { status: 409, when: 'several sessions carry the name; `candidates` lists their ids' },
  SESSION_CLOSED: { status: 409, when: 'the session was closed underneath the request' },
  AGENT_CLOSED: { status: 409, when: 'the session’s agent was closed or its session failed' },
  COMPACTION_IN_PROGRESS: { status: 409, when: 'a compaction of this lifecycle is still open' },
  TURN_IN_PROGRESS: { status: 409, when: 'compaction asked for inside an open turn' },
  // 408.
  REQUEST_TIMEOUT: {
    status: 408,
    when: 'a request body arrived slower than `minBodyBytesPerSecond` (4 KiB/s over 5 s by default); the connection is closed',
  },
  // 413.
  PAYLOAD_TOO_LARGE: { status: 413, when: 'body over the limit (1 MiB by default)' },
  FILE_TOO_LARGE: {
    status: 413,
    when: "a native fork of a file would need more memory than its bound (4× the file's size); the message names both",
  },
  // 422: well-formed, but not possible on this session.
  INVALID_CUT: { status: 422, when: '`atSeq` is not a seq of the observation; nothing was created' },
  INVALID_EVENT: { status: 422, when: 'an append would break an invariant of the current format' },
  IDEMPOTENCY_MISMATCH: { status: 422, when: 'an `Idempotency-Key` reused for a different fork request' },
  PATH_OUTSIDE_CWD: { status: 422, when: 'a tool path outside the session’s working directory' },
  NO_WORKSPACE: { status: 422, when: 'a tool call in a session without a working directory (no config or header cwd, no host workspace)' },
  WORKTREES_UNAVAILABLE: {
    status: 422,
    when: '`worktree: true` on a host started without a data folder for worktrees (`HostOptions.worktrees`)',
  },
  NOT_A_GIT_REPOSITORY: {
    status: 422,
    when: '`worktree: true` on a session whose cwd is in no git checkout with a commit and that has no checkpoint at the cut',
  },
  WRONG_FILE_KIND: { status: 422, when: 'a tool expected a file and found a directory, or the reverse' },
  HARD_LINKED_FILE: { status: 422, when: 'a tool was asked to read or write a file with other hard links' },
  PATH_TOO_LONG: { status: 422, when: 'a tool path over PATH_MAX, NAME_MAX or the depth cap; nothing was created' },
  PATH_REFUSED: { status: 422, when: 'a tool path with a `.git` part (any case, also through a symbolic link)' },
  // 500: a stored log or the host's setup is unusable (the code is still reported), or a bug.
  CORRUPT: { status: 500, when: 'a stored log has no readable header, or its repair would drop more than its unfinished final line' },
  MALFORMED_JSON: { status: 500, when: 'a stored log has a line that is not JSON' },
  INVALID_HEADER: { status: 500, when: 'a stored log’s header is invalid' },
  INVALID_RELATIONSHIP: { status: 500, when: 'a stored log breaks a relationship invariant' },
  UNSUPPORTED_VERSION: { status: 500, when: 'a stored log was written by a newer dsh' },
  UNREPRESENTABLE: { status: 422, when: 'a log cannot go back to an older format version without losing data (the host never downgrades)' },
  INVALID_OBSERVATION: { status: 500, when: 'a bug: a fork from an observation the host’s store did not produce' },
  GIT_NOT_FOUND: { status: 500, when: 'the host could not start the `git` program for a `worktree: true` request' },
  GIT_FAILED: { status: 500, when: 'git refused a step of making a `worktree: true` directory; the message carries what git said' },
  MODEL_CONFIG: { status: 500, when: 'the host’s model lacks configuration (e.g. an API key)' },
  INTERNAL: { status: 500, when: 'anything unknown (a bug): logged, answered with a fixed body' },
  // 502/504: the model failed.
  COMPACTION_FAILED: { status: 502, when: 'the model could not summarize (the bracket is closed in the log)' },
  MODEL_HTTP_ERROR: { status: 502, when: 'the model endpoint answered non-2xx' },
  MODEL_UNREACHABLE: { status: 502, when: 'the model endpoint could not be reached' },
  MODEL_BAD_RESPONSE: { status: 502, when: 'the model endpoint answered something that is not a completion' },
  MODEL_RESPONSE_INVALID: { status: 502, when: 'a custom model resolved with something that is not a model response' },
  MODEL_STREAM_ERROR: { status: 502, when: 'the model provider reported an error inside its stream' },
  SCRIPT_EXHAUSTED: { status: 502, when: 'a scripted model ran out of responses' },
  SCRIPTED_FAILURE: { status: 502, when: 'a scripted model response asked for a failure' },
  MODEL_TIMEOUT: { status: 504, when: 'the model endpoint did not answer in time' },
  // 503: storage is unavailable; the message carries the cause's.
  STORAGE_ERROR: { status: 503, when: 'the storage failed (e.g. a permission error, an unreachable database)' },
  WRITE_FAILED: { status: 503, sentAs: 'STORAGE_ERROR', when: 'storage refused a write; nothing half-written is kept' },
  STORE_CLOSED: { status: 503, when: 'the store was closed' },
  TOO_MANY_STREAMS: {
    status: 503,
    when: 'every event-stream slot is taken (`maxStreams`, 256 by default); `Retry-After` says when to try again',
  },
  SERVER_BUSY: {
    status: 503,
    when: 'the request bodies being read would pass `maxRequestBytesTotal` (64 MiB by default); `Retry-After` says when to try again',
  },
  TOO_MANY_SESSIONS: {
    status: 503,
    retryAfterSeconds: 5,
    when: 'every live-session slot (`maxLiveSessions`, 128 by default) runs a turn or has input queued; `Retry-After` says when to try again',
  },
} as const satisfies Record<PassedThroughCode, HostErrorRow> & Record<string, HostErrorRow>;

/** Every code a `HostError` carries: a key of `HOST_ERROR_CODES`. */
export type HostErrorCode = keyof typeof HOST_ERROR_CODES;

/** Whether `code` is a row of the host's table. */
export function isHostErrorCode(code: unknown): code is HostErrorCode {
  return typeof code === 'string' && Object.hasOwn(HOST_ERROR_CODES, code);
}

/** The HTTP status for an error code; every code has exactly one. */
export function httpStatusOf(code: HostErrorCode): number {
  return HOST_ERROR_CODES[code].status;
}

/** The code an HTTP error body carries for `code` (itself, unless the table says `sentAs`). */
export function wireCodeOf(code: HostErrorCode): string {
  const row: HostErrorRow = HOST_ERROR_CODES[code];
  return row.sentAs ?? code;
}
