/**
 * @module `createBoundedHttpServer`: the Node HTTP server under `serveHost` and the demo, which no
 * number of idle, refused or slow local clients can exhaust (SPEC §27):
 *
 * - at most `maxConnections` open connections: one more closes the connection idle longest (no
 *   request in progress), or is itself closed at once when every connection is serving a request;
 * - a keep-alive connection without a request for `idleTimeoutMs` is closed; a request's headers
 *   must arrive within `headersTimeoutMs` (Node answers 408 and closes); a connection serving a
 *   request with nothing read or written for `inactivityTimeoutMs` is closed;
 * - a body must keep arriving at `minBodyBytesPerSecond` over every `BODY_RATE_WINDOW_MS`, else
 *   408 `REQUEST_TIMEOUT`;
 * - the bodies being read together hold at most `maxRequestBytesTotal` (each counted at its
 *   declared length, or its route's limit when chunked), and at most a quarter of `maxConnections`
 *   bodies are read at once: one more is 503 `SERVER_BUSY` with `Retry-After` before a byte of it
 *   is read.
 *
 * Every refusal here carries `Connection: close`, and the connection is closed once it is written.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { defaultMaxConnections } from './default-max-connections.js';
import { errorBody } from './error-body.js';
import { HostError } from '../host-error.js';
import { httpStatusOf } from '../host-error-codes.js';

/** The bounds of `createBoundedHttpServer`; every field is optional. */
export type ConnectionLimits = {
  /** Open connections at most (default: half the process's descriptor limit, 16–4096; 256 when unknown). */
  maxConnections?: number;
  /** A keep-alive connection with no request for this long is closed (default 5 s). */
  idleTimeoutMs?: number;
  /** All of a request's headers must arrive within this (default 10 s), else Node answers 408 and closes. */
  headersTimeoutMs?: number;
  /**
   * A connection serving a request on which nothing is read or written for this long is closed
   * (default 120 s, under `serveHost` at least twice `heartbeatMs`; 0: never): a client that stops
   * reading a response never holds it forever, and an SSE stream's heartbeat keeps one that is read open.
   */
  inactivityTimeoutMs?: number;
  /** A body must arrive at least this fast over every 5 s (default 4096 bytes/s), else 408 `REQUEST_TIMEOUT`. */
  minBodyBytesPerSecond?: number;
  /** Bytes of all request bodies being read at once (default 64 MiB), else 503 `SERVER_BUSY` with `Retry-After`. */
  maxRequestBytesTotal?: number;
};

/** Default of `idleTimeoutMs`. */
export const DEFAULT_IDLE_TIMEOUT_MS = 5_000;
/** Default of `inactivityTimeoutMs`. */
export const DEFAULT_INACTIVITY_TIMEOUT_MS = 120_000;
/** Default of `headersTimeoutMs`. */
export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
/** Default of `minBodyBytesPerSecond`. */
export const DEFAULT_MIN_BODY_BYTES_PER_SECOND = 4096;
/** Default of `maxRequestBytesTotal`: two transcripts of the import route's 32 MiB at once. */
export const DEFAULT_MAX_REQUEST_BYTES_TOTAL = 64 * 1024 * 1024;
/** The window a body's rate is measured over. */
export const BODY_RATE_WINDOW_MS = 5_000;
/** Seconds a request refused `SERVER_BUSY` is told to wait (`Retry-After`): bodies are read in seconds. */
export const SERVER_BUSY_RETRY_AFTER_SECONDS = 2;

/** What `createBoundedHttpServer` needs: its limits, each route's body limit, the request handler. */
export type BoundedServerOptions = {
  limits?: ConnectionLimits;
  /** The largest body the request's route accepts: what a chunked body is counted as. */
  bodyLimitOf: (request: IncomingMessage) => number;
  handler: (request: IncomingMessage, response: ServerResponse) => void;
  /** The window a body's rate is measured over (default `BODY_RATE_WINDOW_MS`; tests shorten it). */
  bodyRateWindowMs?: number;
};

type Resolved = Required<ConnectionLimits>;

function checked(name: keyof ConnectionLimits, value: number | undefined, fallback: number, zeroAllowed = false): number {
  if (value === undefined) return fallback;
  if (Number.isSafeInteger(value) && (value > 0 || (zeroAllowed && value === 0))) return value;
  throw new HostError(
    'INVALID_OPTION',
    `${name} expects a ${zeroAllowed ? 'non-negative' : 'positive'} integer, received ${String(value)}.`,
  );
}

/** The limits with their defaults, each checked (`INVALID_OPTION` names the bad one). @internal */
export function resolveConnectionLimits(limits: ConnectionLimits = {}): Resolved {
  return {
    maxConnections: checked('maxConnections', limits.maxConnections, defaultMaxConnections()),
    idleTimeoutMs: checked('idleTimeoutMs', limits.idleTimeoutMs, DEFAULT_IDLE_TIMEOUT_MS),
    headersTimeoutMs: checked('headersTimeoutMs', limits.headersTimeoutMs, DEFAULT_HEADERS_TIMEOUT_MS),
    inactivityTimeoutMs: checked('inactivityTimeoutMs', limits.inactivityTimeoutMs, DEFAULT_INACTIVITY_TIMEOUT_MS, true),
    minBodyBytesPerSecond: checked('minBodyBytesPerSecond', limits.minBodyBytesPerSecond, DEFAULT_MIN_BODY_BYTES_PER_SECOND, true),
    maxRequestBytesTotal: checked('maxRequestBytesTotal', limits.maxRequestBytesTotal, DEFAULT_MAX_REQUEST_BYTES_TOTAL),
  };
}

/**
 * Answers `error` as the API's JSON body with `Connection: close` (Node then closes the connection
 * once the answer is written, whatever is left of the request body). A response already started
 * cannot be answered: its connection is destroyed.
 */
export function answerAndClose(response: ServerResponse, error: HostError, headers: Record<string, string> = {}): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  const body = JSON.stringify(errorBody(error));
  response.writeHead(httpStatusOf(error.code), {
    ...headers,
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    connection: 'close',
  });
  response.end(body);
}

/** What a request's body is counted as while it is read: its declared length (0 when over its route's limit: refused unread), its route's limit when chunked, else 0. */
function bodyReservation(request: IncomingMessage, routeLimit: number): number {
  const method = request.method ?? 'GET';
  if (method === 'GET' || method === 'HEAD') return 0;
  const declared = request.headers['content-length'];
  if (declared !== undefined) {
    const length = Number(declared);
    // A declared length over the route's limit is refused (413) before a byte of it is read.
    return Number.isSafeInteger(length) && length > 0 && length <= routeLimit ? length : 0;
  }
  return request.headers['transfer-encoding'] === undefined ? 0 : routeLimit;
}

type Connection = { busy: number };
type WatchedBody = { request: IncomingMessage; response: ServerResponse; socket: Socket; bytesAt: number; since: number };

/**
 * A Node HTTP server running `handler` under the bounds of this module (`INVALID_OPTION` for a bad
 * limit). Pass it to `listenHttpServer` to bind it.
 */
export function createBoundedHttpServer(options: BoundedServerOptions): Server {
  const limits = resolveConnectionLimits(options.limits);
  // In the order of their last activity: the first idle one is the one idle longest.
  const connections = new Map<Socket, Connection>();
  const bodies = new Set<WatchedBody>();
  let reserved = 0;
  // Bodies being read now, and how many may be.
  let reading = 0;
  const maxBodiesReading = Math.max(1, Math.floor(limits.maxConnections / 4));
  let ticker: NodeJS.Timeout | undefined;
  const rateWindowMs = options.bodyRateWindowMs ?? BODY_RATE_WINDOW_MS;

  const touch = (socket: Socket, connection: Connection): void => {
    if (!connections.delete(socket)) return;
    connections.set(socket, connection);
  };

  const checkBodies = (): void => {
    const now = Date.now();
    for (const watched of bodies) {
      if (watched.request.complete || watched.response.writableEnded) {
        bodies.delete(watched);
        continue;
      }
      if (now - watched.since < rateWindowMs) continue;
      const received = watched.socket.bytesRead - watched.bytesAt;
      const expected = (limits.minBodyBytesPerSecond * (now - watched.since)) / 1000;
      if (received < expected) {
        bodies.delete(watched);
        answerAndClose(
          watched.response,
          new HostError(
            'REQUEST_TIMEOUT',
            `Request body too slow: expected at least ${String(limits.minBodyBytesPerSecond)} bytes per second, received ${String(received)} bytes in ${String(Math.round((now - watched.since) / 1000))} s.`,
          ),
        );
        continue;
      }
      watched.bytesAt = watched.socket.bytesRead;
      watched.since = now;
    }
    if (bodies.size === 0 && ticker !== undefined) {
      clearInterval(ticker);
      ticker = undefined;
    }
  };

  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      // Node's whole-request deadline (its default, 5 min) must not be shorter than the headers'.
      requestTimeout: Math.max(300_000, limits.headersTimeoutMs),
      keepAliveTimeout: limits.idleTimeoutMs,
      // Node checks header and request deadlines on this tick (default 30 s: far past a 10 s bound).
      connectionsCheckingInterval: Math.min(1000, limits.headersTimeoutMs),
    },
    (request, response) => {
      const socket = request.socket;
      const connection = connections.get(socket);
      if (connection !== undefined) connection.busy += 1;
      const reservation = bodyReservation(request, options.bodyLimitOf(request));
      // One body always fits, so a route's largest body is never refused on an idle server; and at
      // most a quarter of the connections read bodies, so slow bodies never hold every connection.
      const refusal =
        reservation === 0 || reading === 0
          ? undefined
          : reading >= maxBodiesReading
            ? `this server reads at most ${String(maxBodiesReading)} bodies at once (a quarter of maxConnections) and all are being read`
            : reserved + reservation > limits.maxRequestBytesTotal
              ? `this server reads at most ${String(limits.maxRequestBytesTotal)} bytes of bodies together, ${String(reserved)} are being read and this one declares ${String(reservation)}`
              : undefined;
      const admitted = refusal === undefined;
      if (admitted && reservation > 0) {
        reserved += reservation;
        reading += 1;
      }
      response.once('close', () => {
        if (admitted && reservation > 0) {
          reserved -= reservation;
          reading -= 1;
        }
        if (connection !== undefined) {
          connection.busy -= 1;
          touch(socket, connection);
        }
      });
      if (refusal !== undefined) {
        answerAndClose(
          response,
          new HostError(
            'SERVER_BUSY',
            `Too many request bodies at once: ${refusal}; retry after ${String(SERVER_BUSY_RETRY_AFTER_SECONDS)} s.`,
          ),
          { 'retry-after': String(SERVER_BUSY_RETRY_AFTER_SECONDS) },
        );
        return;
      }
      if (reservation > 0 && limits.minBodyBytesPerSecond > 0 && !request.complete) {
        bodies.add({ request, response, socket, bytesAt: socket.bytesRead, since: Date.now() });
        if (ticker === undefined) {
          ticker = setInterval(checkBodies, Math.min(1000, rateWindowMs));
          ticker.unref();
        }
      }
      options.handler(request, response);
    },
  );
  // Node destroys a socket idle this long while it serves a request (keep-alive gaps use `idleTimeoutMs`).
  server.setTimeout(limits.inactivityTimeoutMs);
  server.on('connection', (socket: Socket) => {
    if (connections.size >= limits.maxConnections) {
      let idlest: Socket | undefined;
      for (const [open, state] of connections) {
        if (state.busy === 0) {
          idlest = open;
          break;
        }
      }
      if (idlest === undefined) {
        // Every connection is serving a request: this one waits for none of them.
        socket.destroy();
        return;
      }
      connections.delete(idlest);
      idlest.destroy();
    }
    connections.set(socket, { busy: 0 });
    socket.once('close', () => {
      connections.delete(socket);
    });
  });
  server.once('close', () => {
    if (ticker !== undefined) clearInterval(ticker);
    ticker = undefined;
  });
  return server;
}
