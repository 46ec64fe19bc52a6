/**
 * @module agent-error
 * `AgentError` and its code table (`AGENT_ERROR_CODES`): every refusal and failure dsh-agent
 * throws or records, and `agentClosed`.
 */
/**
 * Every code an `AgentError` carries, with when it is thrown. The code union is the keys of this
 * table; dsh-host gives each an HTTP status.
 */
export const AGENT_ERROR_CODES = {
  INVALID_MODEL_SPEC: '`resolveModel()` received a spec it does not understand.',
  MODEL_CONFIG: 'A model adapter is missing configuration it needs (e.g. an API key).',
  INVALID_SCRIPT: "A scripted model's file or array does not match SPEC §11's format.",
  SCRIPT_EXHAUSTED: 'A scripted model received more requests than it has responses.',
  SCRIPTED_FAILURE: 'A scripted response entry asked for a model failure (testing aid).',
  MODEL_HTTP_ERROR: 'The model endpoint answered with a non-2xx status.',
  MODEL_UNREACHABLE: 'The model endpoint could not be reached.',
  MODEL_TIMEOUT:
    'The model endpoint sent nothing for the idle timeout, no response headers in time, or the attempt or the whole request ran past its bound.',
  MODEL_BAD_RESPONSE: "The model endpoint answered with a body (or stream) that is not the API's response format.",
  MODEL_RESPONSE_INVALID:
    "A `Model`'s `complete()` resolved with something that is not a `ModelResponse` (a custom model's bug): the turn ends with this error, nothing of it recorded.",
  MODEL_STREAM_ERROR: 'The provider reported an error inside a streaming response (e.g. Anthropic `overloaded_error`).',
  NO_WORKSPACE: 'A tool was called in a session that has no working directory (no config or header cwd, no host workspace).',
  PATH_OUTSIDE_CWD: "A tool path points outside the session's working directory.",
  PATH_TOO_LONG:
    'A tool path is over `PATH_MAX` (4096 bytes), has a name over `NAME_MAX` (255 bytes), or is more than 256 levels deep; nothing was created.',
  PATH_REFUSED:
    "A tool path has a `.git` part (any case, also reached through a symbolic link): the file tools never read or write git's own files.",
  FILE_NOT_FOUND: 'A tool was asked for a file or directory that does not exist.',
  WRONG_FILE_KIND: 'A tool expected a file and found something else, or the reverse.',
  HARD_LINKED_FILE: 'A tool was asked to read or write a file that has other hard links (it may be a file outside the working directory).',
  COMPACTION_IN_PROGRESS: '`compact()` found a compaction of this lifecycle still open.',
  TURN_IN_PROGRESS: '`compact()` was called inside an open turn.',
  COMPACTION_FAILED: 'The summary could not be produced (model failure, empty text, cancellation).',
  AGENT_CLOSED: 'The agent was closed, or its session failed underneath it.',
  INVALID_EVENT: 'An event lacks the shape the agent needs (e.g. a surface event without a message).',
  INVALID_OPTION: 'An option passed to the agent is invalid.',
} as const;

/** An `AgentError`'s code: a key of `AGENT_ERROR_CODES`. */
export type AgentErrorCode = keyof typeof AGENT_ERROR_CODES;

const MARK = Symbol.for('dsh.AgentError');

/**
 * The only error dsh-agent throws. `code` is stable; messages say what was expected and received.
 * `AgentError.is()` recognises instances from another installed copy of the package.
 */
export class AgentError extends Error {
  override readonly name = 'AgentError';
  readonly code: AgentErrorCode;
  /** HTTP status, for `MODEL_HTTP_ERROR` (and the equivalent status of a `MODEL_STREAM_ERROR`). */
  readonly status: number | undefined;
  /** How long the provider asked to wait before a retry (`Retry-After`), in milliseconds. */
  readonly retryAfterMs: number | undefined;
  readonly [MARK] = true;

  constructor(code: AgentErrorCode, message: string, options: { cause?: unknown; status?: number; retryAfterMs?: number } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
  }

  static is(value: unknown): value is AgentError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARK] === true;
  }
}

/** `AGENT_CLOSED` for the agent of `sessionId`: closed, or stopped after its session failed (`failure`, the cause). */
export function agentClosed(sessionId: string, failure: Error | undefined): AgentError {
  return failure === undefined
    ? new AgentError('AGENT_CLOSED', `the agent of session ${sessionId} is closed`)
    : new AgentError('AGENT_CLOSED', `the agent of session ${sessionId} stopped after its session failed`, { cause: failure });
}
