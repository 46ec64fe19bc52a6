/** @module `SESSION_ROUTES`: the route table's first rows: the OpenAPI document and the session resource (list, create, read, open, rename, delete). */
import { defineRoute, type RouteDefinition } from './define-route.js';
import { stripUndefined } from './route-helpers.js';
import { createSessionBodySchema, renameBodySchema } from './request-schemas.js';
import { BODY, LIVE, REF, STORE, STORED } from './route-error-groups.js';
import { refuseTakenName } from './refuse-taken-name.js';

/** The OpenAPI document and the session resource, in the order `HTTP_ROUTES` serves and documents them. @internal */
export const SESSION_ROUTES: readonly RouteDefinition[] = [
  defineRoute({
    method: 'get',
    path: '/api/openapi.json',
    operationId: 'getOpenApiDocument',
    summary: 'This OpenAPI 3.1 document, generated from the route table',
    success: { status: 200, description: 'OpenAPI document', schema: { type: 'object' } },
    errors: [],
    handle: ({ context, document }) => context.json(document()),
  }),
  defineRoute({
    method: 'get',
    path: '/api/sessions',
    operationId: 'listSessions',
    summary: 'List sessions, most recently updated first',
    success: {
      status: 200,
      description: 'Sessions',
      schema: {
        type: 'object',
        required: ['sessions'],
        properties: { sessions: { type: 'array', items: { $ref: '#/components/schemas/SessionListItem' } } },
      },
    },
    errors: [...STORE],
    handle: async ({ context, host }) => context.json({ sessions: await host.list() }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/sessions',
    operationId: 'createSession',
    summary: 'Create a session',
    body: { schema: createSessionBodySchema, component: 'CreateSessionBody', required: false },
    success: {
      status: 201,
      description: 'Created',
      schema: { type: 'object', required: ['sessionId'], properties: { sessionId: { type: 'string' } } },
    },
    errors: [...BODY, ...STORE, 'SESSION_EXISTS', 'NAME_TAKEN', 'WRITE_FAILED', 'TOO_MANY_SESSIONS'],
    handle: async ({ context, host, body }) => {
      if (body.title !== undefined) await refuseTakenName(host, body.title);
      const created = await host.create({
        ...(body.title === undefined ? {} : { title: body.title }),
        ...(body.config === undefined ? {} : { config: stripUndefined(body.config) }),
      });
      return context.json(created, 201);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/sessions/:id',
    operationId: 'observeSession',
    summary: 'Observe a session (read-only: a cold log is shown as stored, never repaired)',
    success: { status: 200, description: 'Observation', schema: 'Observation' },
    errors: [...REF, ...STORED],
    handle: async ({ context, host }) => context.json(await host.observe(context.req.param('id') ?? '')),
  }),
  defineRoute({
    method: 'post',
    path: '/api/sessions/:id/open',
    operationId: 'openSession',
    summary:
      'Open (resume) a session: make it live in this host. A crashed log is repaired first (interrupted closers, persisted); a live session is returned as is',
    success: { status: 200, description: 'Observation of the now live session', schema: 'Observation' },
    errors: [...REF, ...LIVE],
    handle: async ({ context, host }) => context.json(await host.open(context.req.param('id') ?? '')),
  }),
  defineRoute({
    method: 'patch',
    path: '/api/sessions/:id',
    operationId: 'renameSession',
    summary: 'Rename a session (appends session/title)',
    body: { schema: renameBodySchema, component: 'RenameBody', required: true },
    success: {
      status: 200,
      description: 'Renamed',
      schema: {
        type: 'object',
        required: ['sessionId', 'title'],
        properties: { sessionId: { type: 'string' }, title: { type: 'string' } },
      },
    },
    errors: [...BODY, ...REF, ...LIVE, 'NAME_TAKEN'],
    handle: async ({ context, host, body }) => {
      const sessionId = await host.resolve(context.req.param('id') ?? '');
      await refuseTakenName(host, body.title, sessionId);
      await host.rename(sessionId, body.title);
      return context.json({ sessionId, title: body.title });
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/api/sessions/:id',
    operationId: 'deleteSession',
    summary:
      'Delete a stored session (its forks keep their copies). Live here and idle: released, then deleted; 409 SESSION_BUSY while it runs a turn or has queued input here, or another process holds it',
    success: {
      status: 200,
      description: 'Deleted',
      schema: {
        type: 'object',
        required: ['sessionId', 'deleted'],
        properties: { sessionId: { type: 'string' }, deleted: { const: true } },
      },
    },
    errors: [...REF, 'SESSION_BUSY', 'WRITE_FAILED'],
    handle: async ({ context, host }) => context.json({ ...(await host.delete(context.req.param('id') ?? '')), deleted: true }),
  }),
];
