/** @module `HttpAppOptions`: the HTTP layer's options, a type the host's context names without importing the HTTP app. */
import type { HttpGuardOptions } from './http/http-guard.js';
import type { HostLogger } from './host-types.js';

/** Options of the HTTP layer. */
export type HttpAppOptions = HttpGuardOptions & {
  /** Largest accepted request body in bytes (default 1 MiB); larger → 413. */
  maxBodyBytes?: number;
  /** Largest transcript body `POST /api/import` accepts (default 32 MiB: long agent sessions run to megabytes). */
  maxImportBytes?: number;
  /** Where unknown failures are logged before the fixed 500 body is sent (default `console`). */
  logger?: HostLogger;
  /** SSE comment interval keeping idle streams open through proxies (default 15 s). */
  heartbeatMs?: number;
  /** Concurrent SSE streams (default 256); one more is 503 `TOO_MANY_STREAMS` with `Retry-After`. */
  maxStreams?: number;
  /** Bytes an SSE stream may hold for a client that does not read before it is closed (default 8 MiB). */
  maxBufferedBytes?: number;
  /** Bytes all SSE streams together may hold for their clients (default 64 MiB); beyond it the stream holding the most is closed. */
  maxStreamBytesTotal?: number;
};
