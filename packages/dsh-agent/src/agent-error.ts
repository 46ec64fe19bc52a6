export type AgentErrorCode =
  /** `resolveModel()` received a spec it does not understand. */
  | 'INVALID_MODEL_SPEC'
  /** A model adapter is missing configuration it needs (e.g. an API key). */
  | 'MODEL_CONFIG'
  /** A scripted model's file or array does not match SPEC §11's format. */
  | 'INVALID_SCRIPT'
  /** A scripted model received more requests than it has responses. */
  | 'SCRIPT_EXHAUSTED'
  /** A scripted response entry asked for a model failure (testing aid). */
  | 'SCRIPTED_FAILURE'
  /** The model endpoint answered with a non-2xx status. */
  | 'MODEL_HTTP_ERROR'
  /** The model endpoint could not be reached. */
  | 'MODEL_UNREACHABLE'
  /** The model endpoint did not answer in time. */
  | 'MODEL_TIMEOUT'
  /** The model endpoint answered with a body that is not a Chat Completions response. */
  | 'MODEL_BAD_RESPONSE'
  /** A tool path points outside the session's working directory. */
  | 'PATH_OUTSIDE_CWD'
  /** A tool was asked for a file or directory that does not exist. */
  | 'FILE_NOT_FOUND'
  /** A tool expected a file and found something else, or the reverse. */
  | 'WRONG_FILE_KIND'
  /** `compact()` found a compaction of this lifecycle still open. */
  | 'COMPACTION_IN_PROGRESS'
  /** `compact()` was called inside an open turn. */
  | 'TURN_IN_PROGRESS'
  /** The summary could not be produced (model failure, empty text, cancellation). */
  | 'COMPACTION_FAILED'
  /** The agent was closed, or its session failed underneath it. */
  | 'AGENT_CLOSED'
  /** An event lacks the shape the agent needs (e.g. a surface event without a message). */
  | 'INVALID_EVENT'
  /** An option passed to the agent is invalid. */
  | 'INVALID_OPTION';

const MARK = Symbol.for('dsh.AgentError');

/**
 * The only error dsh-agent throws. `code` is stable; messages say what was expected and received.
 * `AgentError.is()` recognises instances from another installed copy of the package.
 */
export class AgentError extends Error {
  override readonly name = 'AgentError';
  readonly code: AgentErrorCode;
  /** HTTP status, for `MODEL_HTTP_ERROR`. */
  readonly status: number | undefined;
  readonly [MARK] = true;

  constructor(code: AgentErrorCode, message: string, options: { cause?: unknown; status?: number } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = options.status;
  }

  static is(value: unknown): value is AgentError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARK] === true;
  }
}
