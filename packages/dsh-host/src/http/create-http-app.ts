/** @module `createHttpApp`: the hono app of SPEC §10 over a `Host`: the request guard, per-path body limits, one handler per row of the route table, JSON bodies read through their zod schemas. */
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { Hono, type Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { bodyLimit } from 'hono/body-limit';
import type { z } from 'zod';
import { HostError } from '../host-error.js';
import { httpGuard } from './http-guard.js';
import type { HttpAppOptions } from '../http-app-options.js';
import type { Host } from '../host-types.js';
import { HOST_ERROR_CODES, httpStatusOf, type HostErrorRow } from '../host-error-codes.js';
import { errorBody } from './error-body.js';
import { HTTP_ROUTES } from './http-routes.js';
import { openApiDocument } from './openapi-document.js';
import { nodeResponseOf } from './node-response-of.js';
import { createStreamSlots } from './stream-slots.js';

/** Default interval of the SSE heartbeat comment. */
export const DEFAULT_HEARTBEAT_MS = 15_000;
/** Default bound on concurrent SSE streams of one app (SPEC §22). */
export const DEFAULT_MAX_STREAMS = 256;
/** Default bound on the bytes one SSE stream holds for a client that does not read (SPEC §22). */
export const DEFAULT_MAX_BUFFERED_BYTES = 8 * 1024 * 1024;
/** Default bound on the bytes all SSE streams of one app hold together (SPEC §27). */
export const DEFAULT_MAX_STREAM_BYTES_TOTAL = 64 * 1024 * 1024;

function positiveInteger(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (Number.isSafeInteger(value) && value > 0) return value;
  throw new HostError('INVALID_OPTION', `${name} expects a positive integer, received ${String(value)}.`);
}

/** The fixed body of every unknown failure: nothing about the failure leaks to the client. */
export const INTERNAL_ERROR_BODY = { error: { code: 'INTERNAL', message: 'Internal server error; the host logged the details.' } };

const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
const DEFAULT_MAX_IMPORT_BYTES = 32 * 1024 * 1024;

/**
 * The body limit of the route a request path names: the app's `maxBodyBytes`, or the route's own
 * when larger (a transcript to import). The served listener counts a chunked body as this. @internal
 */
export function bodyLimitOfPath(options: HttpAppOptions): (pathname: string) => number {
  const limits = {
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    maxImportBytes: options.maxImportBytes ?? DEFAULT_MAX_IMPORT_BYTES,
  };
  const own = HTTP_ROUTES.flatMap((route) =>
    route.maxBodyBytes === undefined
      ? []
      : [{ pattern: new RegExp(`^${route.path.replace(/:[^/]+/g, '[^/]+')}/?$`), limit: route.maxBodyBytes(limits) }],
  );
  return (pathname) =>
    own.reduce((limit, route) => (route.pattern.test(pathname) ? Math.max(limit, route.limit) : limit), limits.maxBodyBytes);
}

function limitTo(maxSize: number) {
  return bodyLimit({
    maxSize,
    onError: () => {
      throw new HostError('PAYLOAD_TOO_LARGE', `Request body too large: expected at most ${maxSize} bytes.`);
    },
  });
}

async function readBody<Schema extends z.ZodType>(context: Context, schema: Schema): Promise<z.output<Schema>> {
  const text = await context.req.text();
  let value: unknown = {};
  if (text.trim() !== '') {
    try {
      value = JSON.parse(text);
    } catch {
      throw new HostError(
        'BAD_REQUEST',
        `Request body is not valid JSON: expected a JSON object, received ${JSON.stringify(text.slice(0, 40))}.`,
      );
    }
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((issue) => ({
    path: issue.path.map((key) => (typeof key === 'symbol' ? String(key) : key)),
    message: issue.message,
  }));
  const where = issues.map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(body)'}: ${issue.message}`).join('; ');
  throw new HostError('BAD_REQUEST', `Invalid request body — ${where}.`, { details: { issues } });
}

/**
 * The HTTP API of SPEC §10 over a `Host`, as a hono app to serve or mount elsewhere: the routes of
 * one table (the OpenAPI document's source), JSON bodies validated by zod (400 with the field path),
 * statuses from `HOST_ERROR_CODES`, unknown errors logged and answered with a fixed 500 body.
 */
export function createHttpApp(host: Host, options: HttpAppOptions = {}): Hono {
  const logger = options.logger ?? console;
  const streams = {
    heartbeatMs: options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS,
    maxBufferedBytes: positiveInteger('maxBufferedBytes', options.maxBufferedBytes, DEFAULT_MAX_BUFFERED_BYTES),
    slots: createStreamSlots(
      positiveInteger('maxStreams', options.maxStreams, DEFAULT_MAX_STREAMS),
      positiveInteger('maxStreamBytesTotal', options.maxStreamBytesTotal, DEFAULT_MAX_STREAM_BYTES_TOTAL),
    ),
  };
  const app = new Hono();

  app.onError((error, context) => {
    // Answered already (a body cut off for its rate by the served listener) or its client gone: a
    // body read failing then is no news, and nothing can be sent.
    const outgoing = nodeResponseOf(context);
    if (outgoing !== undefined && (outgoing.writableEnded || outgoing.destroyed)) return RESPONSE_ALREADY_SENT;
    // A refusal may leave a body unread and is what a flood of clients gets: its connection ends with it.
    context.header('Connection', 'close');
    const known = HostError.wrap(error);
    if (known !== undefined) {
      const row: HostErrorRow = HOST_ERROR_CODES[known.code];
      if (row.retryAfterSeconds !== undefined) context.header('Retry-After', String(row.retryAfterSeconds));
      return context.json(errorBody(known), httpStatusOf(known.code) as ContentfulStatusCode);
    }
    logger.error(`dsh-host: unhandled error on ${context.req.method} ${context.req.path}`, error);
    return context.json(INTERNAL_ERROR_BODY, 500);
  });
  app.notFound((context) =>
    context.json(
      errorBody(new HostError('NOT_FOUND', `No route for ${context.req.method} ${context.req.path}; see GET /api/openapi.json.`)),
      404,
    ),
  );

  // Host, origin, media type and token are checked before anything else (see http-guard.ts).
  app.use('*', httpGuard(options));
  // Each path reads its body under its own limit: the app's, or its routes' when they say (a transcript to import).
  const limits = {
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    maxImportBytes: options.maxImportBytes ?? DEFAULT_MAX_IMPORT_BYTES,
  };
  const limitOfPath = new Map<string, number>();
  for (const route of HTTP_ROUTES)
    limitOfPath.set(route.path, Math.max(limitOfPath.get(route.path) ?? 0, route.maxBodyBytes?.(limits) ?? limits.maxBodyBytes));
  for (const [path, maxSize] of limitOfPath) app.use(path, limitTo(maxSize));

  // Every route comes from the one table the OpenAPI document is generated from.
  let document: Record<string, unknown> | undefined;
  const routeDocument = (): Record<string, unknown> => (document ??= openApiDocument());
  for (const route of HTTP_ROUTES) {
    app.on(route.method.toUpperCase(), route.path, async (context) => {
      const body = route.body === undefined ? {} : await readBody(context, route.body.schema);
      return route.handle({ context, host, body, streams, document: routeDocument });
    });
  }

  return app;
}
