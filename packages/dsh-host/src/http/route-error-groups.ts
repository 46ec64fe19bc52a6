/** @module The groups of error codes the route table's operations document: store, session ref, stored log, live session, JSON body. */
import type { HostErrorCode } from '../host-error-codes.js';

/** Codes of any request that reaches the store. */
export const STORE: readonly HostErrorCode[] = ['STORE_CLOSED', 'STORAGE_ERROR'];
/** Codes of a request naming a session (`:id` is an id or a name, resolved through the store). */
export const REF: readonly HostErrorCode[] = [...STORE, 'SESSION_NOT_FOUND', 'NAME_AMBIGUOUS'];
/** Codes of reading a stored log the host has not opened. */
export const STORED: readonly HostErrorCode[] = [
  'CORRUPT',
  'MALFORMED_JSON',
  'INVALID_HEADER',
  'INVALID_RELATIONSHIP',
  'UNSUPPORTED_VERSION',
  'INVALID_EVENT',
];
/** Codes of making a session live in this host (open with crash repair, then append). */
export const LIVE: readonly HostErrorCode[] = [
  ...STORED,
  'SESSION_BUSY',
  'SESSION_CLOSED',
  'AGENT_CLOSED',
  'WRITE_FAILED',
  'TOO_MANY_SESSIONS',
];
/** Codes of a route with a JSON body. */
export const BODY: readonly HostErrorCode[] = ['BAD_REQUEST'];
/** Codes of a `worktree: true` request: the host's worktree maker refused, or the host has none. */
export const WORKTREE: readonly HostErrorCode[] = [
  'WORKTREES_UNAVAILABLE',
  'INVALID_OPTION',
  'NO_WORKSPACE',
  'NOT_A_GIT_REPOSITORY',
  'INVALID_BRANCH_NAME',
  'WORKTREE_EXISTS',
  'BRANCH_EXISTS',
  'GIT_NOT_FOUND',
  'GIT_FAILED',
];
