/** @module `serveHost`: the host's HTTP app on a Node listener that refuses a malformed `Host` header before hono builds a URL; `isLoopbackAddress`. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { getRequestListener, RequestError } from '@hono/node-server';
import {
  answerAndClose,
  createBoundedHttpServer,
  DEFAULT_INACTIVITY_TIMEOUT_MS,
  resolveConnectionLimits,
  type ConnectionLimits,
} from './bounded-http-server.js';
import { bodyLimitOfPath, createHttpApp, DEFAULT_HEARTBEAT_MS, DEFAULT_MAX_STREAMS, INTERNAL_ERROR_BODY } from './create-http-app.js';
import type { HttpAppOptions } from '../http-app-options.js';
import { errorBody } from './error-body.js';
import { HostError } from '../host-error.js';
import { badHostHeader } from './http-guard.js';
import type { Host } from '../host-types.js';
import { listenHttpServer } from './listen-http-server.js';
import { parseHostHeader } from './parse-host-header.js';

/**
 * Options of `serveHost()`. Binding anything but loopback requires a `token`; `allowedHosts` adds
 * names (besides IP literals, localhost and the bound name) that clients may use in `Host`; the
 * `ConnectionLimits` bound what local clients can hold (connections, idle time, slow bodies).
 */
export type ServeOptions = HttpAppOptions &
  ConnectionLimits & {
    /** Default `127.0.0.1`. */
    hostname?: string;
    /** Default 0 (any free port). */
    port?: number;
  };

/** A listening server; `close()` stops accepting, ends open streams and resolves when closed. */
export type HostServer = { url: string; hostname: string; port: number; close(): Promise<void> };

/** Whether a bind address only accepts connections from this machine. */
export function isLoopbackAddress(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '::1' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/**
 * Serves the host's HTTP API with Node's http server. Binds 127.0.0.1 by default; refuses any other
 * address without a bearer `token` (`INVALID_OPTION`), and then requires the token on every request.
 * Every request passes the guard of `http-guard.ts` with the `Host` header checked; a request no URL
 * can be built from (a malformed `Host`, a backslash in the path) is 400 `BAD_REQUEST` before it.
 * At most `maxStreams` SSE streams are open at once (see `HttpAppOptions`; by default 256, or half
 * `maxConnections` when that is less); connections, idle
 * time, header time, body rate and the bodies read at once are bounded (see `ConnectionLimits`), and
 * every refusal carries `Connection: close` and closes its connection.
 */
export async function serveHost(host: Host, options: ServeOptions = {}): Promise<HostServer> {
  const hostname = options.hostname ?? '127.0.0.1';
  if (!isLoopbackAddress(hostname) && (options.token === undefined || options.token.length < 16)) {
    throw new HostError(
      'INVALID_OPTION',
      `Refusing to bind ${hostname} without a bearer token: expected a token of at least 16 characters (or bind 127.0.0.1).`,
    );
  }
  // DNS rebinding: only the bound name, IP literals, localhost and the configured names reach the API.
  const bound = hostname.replace(/^\[|\]$/g, '');
  const allowedHosts = [...(bound === '0.0.0.0' || bound === '::' ? [] : [hostname]), ...(options.allowedHosts ?? [])];
  // An SSE stream that is read writes a heartbeat at least this often: inactivity never cuts it.
  const heartbeatMs = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
  const limits = resolveConnectionLimits({
    ...options,
    inactivityTimeoutMs: options.inactivityTimeoutMs ?? Math.max(DEFAULT_INACTIVITY_TIMEOUT_MS, 2 * heartbeatMs),
  });
  // Streams never take more than half the connections, so other clients always find one.
  const maxStreams = options.maxStreams ?? Math.min(DEFAULT_MAX_STREAMS, Math.max(1, Math.floor(limits.maxConnections / 2)));
  const app = createHttpApp(host, { ...options, allowedHosts, maxStreams });
  const logger = options.logger ?? console;
  const listener = getRequestListener(app.fetch, {
    hostname,
    // node-server's own refusals (a URL it cannot build) get the API's JSON body, not an empty 400.
    errorHandler: (error) => {
      if (error instanceof RequestError)
        return Response.json(errorBody(new HostError('BAD_REQUEST', `Malformed request: ${error.message}.`)), {
          status: 400,
          headers: { connection: 'close' },
        });
      logger.error('dsh-host: unhandled error before routing', error);
      return Response.json(INTERNAL_ERROR_BODY, { status: 500, headers: { connection: 'close' } });
    },
  });
  const bodyLimit = bodyLimitOfPath(options);
  const server = createBoundedHttpServer({
    limits,
    bodyLimitOf: (incoming) => bodyLimit((incoming.url ?? '/').split('?')[0] ?? '/'),
    handler: (incoming: IncomingMessage, outgoing: ServerResponse) => {
      const given = incoming.headers.host;
      if (given !== undefined && parseHostHeader(given) === undefined) {
        answerAndClose(outgoing, badHostHeader(given));
        return;
      }
      void listener(incoming, outgoing);
    },
  });
  const listening = await listenHttpServer(server, hostname, options.port ?? 0);
  const shown = hostname.includes(':') && !hostname.startsWith('[') ? `[${hostname}]` : hostname;
  return { url: `http://${shown}:${listening.port}`, hostname, port: listening.port, close: listening.close };
}
