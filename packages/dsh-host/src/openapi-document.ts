import { z } from 'zod';
import {
  createSessionBodySchema,
  forkBodySchema,
  messageBodySchema,
  renameBodySchema,
} from './request-schemas.js';

type JsonSchema = Record<string, unknown>;

function bodySchema(schema: z.ZodType): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: 'input' }) as JsonSchema;
  return rest;
}

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: JsonSchema) => ({ 'application/json': { schema } });
const errors = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((status) => [String(status), { description: errorDescriptions[status] ?? 'Error', content: json(ref('Error')) }]));

const errorDescriptions: Record<number, string> = {
  400: 'Malformed body (the message and `issues` name the field path)',
  401: 'Missing or wrong bearer token',
  404: 'SESSION_NOT_FOUND',
  409: 'SESSION_EXISTS, SESSION_BUSY or NAME_AMBIGUOUS (`candidates` lists the ids)',
  413: 'Body larger than the limit',
  422: 'INVALID_CUT, INVALID_EVENT or IDEMPOTENCY_MISMATCH',
  500: 'A stored log the host cannot read (its code), or INTERNAL with a fixed body',
  502: 'COMPACTION_FAILED: the model could not summarize',
};

const formatVersionSchema = {
  enum: [0, 1, 2, 3, 4],
  description: 'The format version the log was read from: for a session this host opened, the version its file had when this host first opened it; else the version it is stored in.',
};

const idParam = { name: 'id', in: 'path', required: true, description: 'Session id or name (latest title)', schema: { type: 'string' } };

/** The OpenAPI 3.1 description of the HTTP API served at `GET /api/openapi.json`. */
export function openApiDocument(): JsonSchema {
  const event = {
    type: 'object',
    required: ['seq', 'type', 'time', 'data'],
    properties: {
      seq: { type: 'integer', minimum: 0 },
      type: { type: 'string' },
      time: { type: 'integer' },
      data: {},
      surfaceOp: { type: 'object' },
      ignorable: { const: true },
    },
  };
  const lineageNode = {
    type: 'object',
    required: ['id'],
    properties: {
      id: { type: 'string' },
      title: { type: 'string' },
      parentSession: { type: 'string' },
      forkCut: { type: 'integer' },
      createdAt: { type: 'integer' },
      missing: { const: true },
    },
  };
  return {
    openapi: '3.1.0',
    info: { title: 'dsh host', version: '1', description: 'Durable agent sessions: live and cold sessions, exact-event forks, lineage.' },
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'Required when the server binds a non-loopback address.' } },
      schemas: {
        Error: {
          type: 'object',
          required: ['error'],
          properties: {
            error: {
              type: 'object',
              required: ['code', 'message'],
              properties: {
                code: { type: 'string' },
                message: { type: 'string' },
                candidates: { type: 'array', items: { type: 'string' } },
                issues: { type: 'array', items: { type: 'object' } },
              },
            },
          },
        },
        SessionEvent: event,
        SessionListItem: {
          type: 'object',
          required: ['id', 'createdAt', 'updatedAt', 'lastSeq', 'live', 'status', 'formatVersion', 'sharesCwdWith'],
          properties: {
            id: { type: 'string' },
            title: { type: 'string' },
            parentSession: { type: 'string' },
            forkCut: { type: 'integer' },
            createdAt: { type: 'integer' },
            updatedAt: { type: 'integer' },
            lastSeq: { type: 'integer' },
            live: { type: 'boolean' },
            status: { enum: ['running', 'idle', 'stored', 'needs-repair', 'busy'] },
            formatVersion: formatVersionSchema,
            cwd: { type: 'string' },
            sharesCwdWith: { type: 'array', items: { type: 'string' } },
          },
        },
        Observation: {
          type: 'object',
          required: ['header', 'events', 'firstLifecycleSeq', 'live', 'needsRepair', 'pendingInputs', 'formatVersion', 'sharesCwdWith'],
          properties: {
            header: { type: 'object' },
            events: { type: 'array', items: ref('SessionEvent') },
            firstLifecycleSeq: { type: 'integer' },
            live: { type: 'boolean' },
            needsRepair: { type: 'boolean' },
            pendingInputs: { type: 'array', items: ref('SessionEvent') },
            formatVersion: formatVersionSchema,
            title: { type: 'string' },
            cwd: { type: 'string' },
            sharesCwdWith: { type: 'array', items: { type: 'string' } },
          },
        },
        ForkResult: {
          type: 'object',
          required: ['sessionId', 'parentSession', 'forkCut', 'inheritedEventCount'],
          properties: {
            sessionId: { type: 'string' },
            parentSession: { type: 'string' },
            forkCut: { type: 'integer' },
            inheritedEventCount: { type: 'integer' },
          },
        },
        Lineage: {
          type: 'object',
          required: ['session', 'ancestors', 'descendants'],
          properties: {
            session: lineageNode,
            ancestors: { type: 'array', items: lineageNode, description: 'Root first, ending with the parent.' },
            descendants: { type: 'array', items: { type: 'object', description: 'A LineageNode with `children`.' } },
          },
        },
        CreateSessionBody: bodySchema(createSessionBodySchema),
        MessageBody: bodySchema(messageBodySchema),
        ForkBody: bodySchema(forkBodySchema),
        RenameBody: bodySchema(renameBodySchema),
      },
    },
    paths: {
      '/api/sessions': {
        get: {
          summary: 'List sessions',
          responses: { '200': { description: 'Sessions', content: json({ type: 'object', properties: { sessions: { type: 'array', items: ref('SessionListItem') } } }) } },
        },
        post: {
          summary: 'Create a session',
          requestBody: { content: json(ref('CreateSessionBody')) },
          responses: { '201': { description: 'Created', content: json({ type: 'object', properties: { sessionId: { type: 'string' } } }) }, ...errors(400, 409, 413) },
        },
      },
      '/api/sessions/{id}': {
        parameters: [idParam],
        get: { summary: 'Observe a session (read-only: a cold log is shown as stored, never repaired)', responses: { '200': { description: 'Observation', content: json(ref('Observation')) }, ...errors(404, 409) } },
        patch: {
          summary: 'Rename a session (appends session/title)',
          requestBody: { required: true, content: json(ref('RenameBody')) },
          responses: { '200': { description: 'Renamed' }, ...errors(400, 404, 409) },
        },
      },
      '/api/sessions/{id}/open': {
        parameters: [idParam],
        post: {
          summary: 'Open (resume) a session: make it live in this host. A crashed log is repaired first (interrupted closers, persisted); a live session is returned as is',
          responses: { '200': { description: 'Observation of the now live session', content: json(ref('Observation')) }, ...errors(404, 409, 500) },
        },
      },
      '/api/sessions/{id}/events': {
        parameters: [
          idParam,
          { name: 'from', in: 'query', schema: { type: 'integer', minimum: 0 }, description: 'First seq to send (default 0)' },
          { name: 'Last-Event-ID', in: 'header', schema: { type: 'string' }, description: 'Reconnect: resume after this seq (wins over `from`)' },
        ],
        get: {
          summary: 'Server-sent events: every event from a seq, then live ones; `id` is the seq, `data` the event JSON',
          responses: { '200': { description: 'Event stream', content: { 'text/event-stream': { schema: { type: 'string' } } } }, ...errors(400, 404, 409) },
        },
      },
      '/api/sessions/{id}/messages': {
        parameters: [idParam],
        post: {
          summary: 'Queue user input (input/queued); a turn claims it',
          requestBody: { required: true, content: json(ref('MessageBody')) },
          responses: { '202': { description: 'Queued', content: json({ type: 'object', properties: { inputId: { type: 'string' } } }) }, ...errors(400, 404, 409) },
        },
      },
      '/api/sessions/{id}/fork': {
        parameters: [
          idParam,
          { name: 'Idempotency-Key', in: 'header', schema: { type: 'string' }, description: 'Repeating a key returns the first child' },
        ],
        post: {
          summary: 'Fork at an exact seq, or (atSeq omitted) after the latest closed turn and its standalone tail',
          requestBody: { content: json(ref('ForkBody')) },
          responses: { '201': { description: 'Forked', content: json(ref('ForkResult')) }, ...errors(400, 404, 409, 422) },
        },
      },
      '/api/sessions/{id}/compact': {
        parameters: [idParam],
        post: {
          summary: 'Manual compaction between turns: summarize the model history and replace it (ignorable compaction/* events)',
          responses: {
            '200': {
              description: '{ compacted: false, reason } or { compacted: true, summary, replaced: { start, end }, startSeq, endSeq }',
              content: json({ type: 'object', required: ['compacted'], properties: { compacted: { type: 'boolean' } } }),
            },
            ...errors(404, 409, 502),
          },
        },
      },
      '/api/sessions/{id}/cancel': {
        parameters: [idParam],
        post: { summary: 'Cancel the running turn', responses: { '200': { description: 'Whether a turn was running', content: json({ type: 'object', properties: { cancelled: { type: 'boolean' } } }) }, ...errors(404) } },
      },
      '/api/sessions/{id}/lineage': {
        parameters: [idParam],
        get: { summary: 'Ancestors and descendants', responses: { '200': { description: 'Lineage', content: json(ref('Lineage')) }, ...errors(404, 409) } },
      },
    },
    security: [{ bearer: [] }, {}],
  };
}
