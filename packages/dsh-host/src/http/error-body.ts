/**
 * @module The JSON body of every known refusal, shared by the hono app and the Node listener of
 * `serveHost` (which answers a malformed request before the app sees it).
 */
import type { HostError } from '../host-error.js';
import { httpStatusOf, wireCodeOf } from '../host-error-codes.js';

/** The `{ error: { code, message, ...details } }` body of a known error; a 503 also names its cause. @internal */
export function errorBody(error: HostError): { error: Record<string, unknown> } {
  const status = httpStatusOf(error.code);
  const message = status === 503 ? withRootCause(error) : error.message;
  // HTTP users get an HTTP action, never a library call (SPEC §25).
  const hint =
    error.code === 'SESSION_BUSY'
      ? { hint: 'fork it instead: POST /api/sessions/:id/fork (body {"atSeq": N} to cut elsewhere), or stop the process holding it' }
      : {};
  return { error: { code: wireCodeOf(error.code), message, ...error.details, ...hint } };
}

/** `error.message`, followed by the innermost cause's message when it does not already say it. */
function withRootCause(error: Error): string {
  let root: unknown = error;
  while (root instanceof Error && root.cause instanceof Error) root = root.cause;
  const cause = root instanceof Error ? root.message : '';
  return cause === '' || error.message.includes(cause) ? error.message : `${error.message} Cause: ${cause}`;
}
