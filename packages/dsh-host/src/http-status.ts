import type { HostErrorCode } from './host-error.js';

/**
 * The one table from error code to HTTP status. Client mistakes are 4xx; a stored log the host
 * cannot read is a 500 that still names its code, unlike an unknown failure.
 */
export const HTTP_STATUS_BY_CODE: Readonly<Record<HostErrorCode, number>> = {
  BAD_REQUEST: 400,
  INVALID_SESSION_ID: 400,
  INVALID_MODEL_SPEC: 400,
  INVALID_SCRIPT: 400,
  INVALID_OPTION: 400,
  UNAUTHORIZED: 401,
  NOT_FOUND: 404,
  SESSION_NOT_FOUND: 404,
  SESSION_EXISTS: 409,
  SESSION_BUSY: 409,
  NAME_AMBIGUOUS: 409,
  SESSION_CLOSED: 409,
  AGENT_CLOSED: 409,
  COMPACTION_IN_PROGRESS: 409,
  TURN_IN_PROGRESS: 409,
  PAYLOAD_TOO_LARGE: 413,
  INVALID_CUT: 422,
  INVALID_EVENT: 422,
  IDEMPOTENCY_KEY_REUSED: 422,
  CORRUPT: 500,
  WRITE_FAILED: 500,
  MODEL_CONFIG: 500,
  MALFORMED_JSON: 500,
  INVALID_HEADER: 500,
  INVALID_RELATIONSHIP: 500,
  UNSUPPORTED_VERSION: 500,
  INTERNAL: 500,
  COMPACTION_FAILED: 502,
  STORE_CLOSED: 503,
};

/** The HTTP status for an error code; every code has exactly one. */
export function httpStatusOf(code: HostErrorCode): number {
  return HTTP_STATUS_BY_CODE[code];
}
