import { createHash, timingSafeEqual } from 'node:crypto';
import { Hono, type Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { bodyLimit } from 'hono/body-limit';
import type { z } from 'zod';
import type { SessionEvent } from 'dsh-codec';
import { HostError } from './host-error.js';
import type { Host, HostLogger } from './host-types.js';
import { httpStatusOf, wireCodeOf } from './host-error-codes.js';
import { openApiDocument } from './openapi-document.js';
import {
  createSessionBodySchema,
  eventsQuerySchema,
  forkBodySchema,
  idempotencyKeySchema,
  messageBodySchema,
  renameBodySchema,
} from './request-schemas.js';

/** Options of the HTTP layer. */
export type HttpAppOptions = {
  /** When set, every request needs `Authorization: Bearer <token>`. */
  token?: string;
  /** Largest accepted request body in bytes (default 1 MiB); larger → 413. */
  maxBodyBytes?: number;
  /** Where unknown failures are logged before the fixed 500 body is sent (default `console`). */
  logger?: HostLogger;
  /** SSE comment interval keeping idle streams open through proxies (default 15 s). */
  heartbeatMs?: number;
};

/** The fixed body of every unknown failure: nothing about the failure leaks to the client. */
export const INTERNAL_ERROR_BODY = { error: { code: 'INTERNAL', message: 'Internal server error; the host logged the details.' } };

const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

async function readBody<Schema extends z.ZodType>(context: Context, schema: Schema): Promise<z.output<Schema>> {
  const text = await context.req.text();
  let value: unknown = {};
  if (text.trim() !== '') {
    try {
      value = JSON.parse(text);
    } catch {
      throw new HostError('BAD_REQUEST', `Request body is not valid JSON: expected a JSON object, received ${JSON.stringify(text.slice(0, 40))}.`);
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

/** The `{ error: { code, message, ...details } }` body of a known error; a 503 also names its cause. */
function errorBody(error: HostError): { error: Record<string, unknown> } {
  const status = httpStatusOf(error.code);
  const message = status === 503 ? withRootCause(error) : error.message;
  return { error: { code: wireCodeOf(error.code), message, ...error.details } };
}

/** `error.message`, followed by the innermost cause's message when it does not already say it. */
function withRootCause(error: Error): string {
  let root: unknown = error;
  while (root instanceof Error && root.cause instanceof Error) root = root.cause;
  const cause = root instanceof Error ? root.message : '';
  return cause === '' || error.message.includes(cause) ? error.message : `${error.message} Cause: ${cause}`;
}

function sseFrame(event: SessionEvent): string {
  return `id: ${event.seq}\ndata: ${JSON.stringify(event)}\n\n`;
}

/**
 * The HTTP API of SPEC §10 over a `Host`, as a hono app: JSON bodies validated by zod (400 with the
 * field path), one code → status table, unknown errors logged and answered with a fixed 500 body.
 */
export function createHttpApp(host: Host, options: HttpAppOptions = {}): Hono {
  const logger = options.logger ?? console;
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const app = new Hono();

  app.onError((error, context) => {
    const known = HostError.wrap(error);
    if (known !== undefined) return context.json(errorBody(known), httpStatusOf(known.code) as ContentfulStatusCode);
    logger.error(`dsh-host: unhandled error on ${context.req.method} ${context.req.path}`, error);
    return context.json(INTERNAL_ERROR_BODY, 500);
  });
  app.notFound((context) =>
    context.json(errorBody(new HostError('NOT_FOUND', `No route for ${context.req.method} ${context.req.path}; see GET /api/openapi.json.`)), 404),
  );

  if (options.token !== undefined) {
    const expected = digest(options.token);
    app.use('*', async (context, next) => {
      const header = context.req.header('authorization') ?? '';
      const match = /^Bearer (.+)$/.exec(header);
      if (match?.[1] === undefined || !timingSafeEqual(digest(match[1]), expected)) {
        context.header('WWW-Authenticate', 'Bearer');
        throw new HostError('UNAUTHORIZED', 'Missing or wrong bearer token: send `Authorization: Bearer <token>`.');
      }
      await next();
    });
  }
  const maxSize = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  app.use(
    '/api/*',
    bodyLimit({
      maxSize,
      onError: () => {
        throw new HostError('PAYLOAD_TOO_LARGE', `Request body too large: expected at most ${maxSize} bytes.`);
      },
    }),
  );

  app.get('/api/openapi.json', (context) => context.json(openApiDocument()));

  app.get('/api/sessions', async (context) => context.json({ sessions: await host.list() }));

  app.post('/api/sessions', async (context) => {
    const body = await readBody(context, createSessionBodySchema);
    const created = await host.create({
      ...(body.title === undefined ? {} : { title: body.title }),
      ...(body.config === undefined ? {} : { config: stripUndefined(body.config) }),
    });
    return context.json(created, 201);
  });

  // Read-only: a cold session is observed as stored, repair not applied. Opening it is a POST.
  app.get('/api/sessions/:id', async (context) => context.json(await host.observe(context.req.param('id'))));

  app.post('/api/sessions/:id/open', async (context) => context.json(await host.open(context.req.param('id'))));

  app.patch('/api/sessions/:id', async (context) => {
    const body = await readBody(context, renameBodySchema);
    const sessionId = await host.resolve(context.req.param('id'));
    await host.rename(sessionId, body.title);
    return context.json({ sessionId, title: body.title });
  });

  app.post('/api/sessions/:id/messages', async (context) => {
    const body = await readBody(context, messageBodySchema);
    return context.json(await host.send(context.req.param('id'), body.text), 202);
  });

  app.post('/api/sessions/:id/fork', async (context) => {
    const body = await readBody(context, forkBodySchema);
    const rawKey = context.req.header('idempotency-key');
    let idempotencyKey: string | undefined;
    if (rawKey !== undefined) {
      const key = idempotencyKeySchema.safeParse(rawKey);
      if (!key.success) {
        throw new HostError('BAD_REQUEST', 'Invalid Idempotency-Key header: expected 1-255 visible ASCII characters.', {
          details: { issues: [{ path: ['headers', 'idempotency-key'], message: 'expected 1-255 visible ASCII characters' }] },
        });
      }
      idempotencyKey = key.data;
    }
    const result = await host.fork(context.req.param('id'), {
      ...(body.atSeq === undefined ? {} : { atSeq: body.atSeq }),
      ...(body.title === undefined ? {} : { title: body.title }),
      ...(body.config === undefined ? {} : { config: stripUndefined(body.config) }),
      ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
    });
    return context.json(result, 201);
  });

  app.post('/api/sessions/:id/compact', async (context) => context.json(await host.compact(context.req.param('id'))));

  app.post('/api/sessions/:id/cancel', async (context) => context.json(await host.cancel(context.req.param('id'))));

  app.get('/api/sessions/:id/lineage', async (context) => context.json(await host.lineage(context.req.param('id'))));

  app.get('/api/sessions/:id/events', async (context) => {
    const query = eventsQuerySchema.safeParse({ from: context.req.query('from') });
    if (!query.success) {
      throw new HostError('BAD_REQUEST', 'Invalid query — from: expected a non-negative integer.', {
        details: { issues: [{ path: ['query', 'from'], message: 'expected a non-negative integer' }] },
      });
    }
    const lastEventId = context.req.header('last-event-id');
    let from = query.data.from === undefined ? 0 : Number(query.data.from);
    if (lastEventId !== undefined && /^\d{1,15}$/.test(lastEventId.trim())) from = Number(lastEventId.trim()) + 1;
    const sessionId = await host.resolve(context.req.param('id'));
    const encoder = new TextEncoder();
    let cancelled = false;
    let stop = (): void => undefined;
    const body = new ReadableStream<Uint8Array>({
      start: async (controller) => {
        const send = (text: string): void => {
          try {
            controller.enqueue(encoder.encode(text));
          } catch {
            stop();
          }
        };
        send(': dsh event stream\n\n');
        const watch = await host.watch(sessionId, from, (event) => {
          send(sseFrame(event));
        });
        if (cancelled) {
          watch.close();
          return;
        }
        const timer = setInterval(() => {
          send(': keep-alive\n\n');
        }, heartbeatMs);
        timer.unref();
        stop = () => {
          clearInterval(timer);
          watch.close();
        };
      },
      cancel: () => {
        cancelled = true;
        stop();
      },
    });
    return new Response(body, {
      headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' },
    });
  });

  return app;
}

/** zod's optional fields may hold `undefined`; the host's types (exactOptionalPropertyTypes) may not. */
function stripUndefined<T extends Record<string, unknown>>(value: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as { [K in keyof T]: Exclude<T[K], undefined> };
}
