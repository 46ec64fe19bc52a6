/** @module `openApiDocument`: the OpenAPI 3.1 document generated from the route table, the request schemas and the error table. */
import { z } from 'zod';
import type { RouteDefinition } from './define-route.js';
import { HOST_ERROR_CODES, wireCodeOf, type HostErrorCode, type HostErrorRow } from '../host-error-codes.js';
import { HTTP_ROUTES } from './http-routes.js';

type JsonSchema = Record<string, unknown>;

/** Codes of the guard in front of every route (token, a malformed or unknown `Host`) and of a bug. */
const EVERY_ROUTE: readonly HostErrorCode[] = ['BAD_REQUEST', 'UNAUTHORIZED', 'HOST_NOT_ALLOWED', 'INTERNAL'];
/** Codes of the guard and body limit in front of every state-changing (non-GET) route, and of `serveHost`'s body bounds. */
const STATE_CHANGING: readonly HostErrorCode[] = [
  'CROSS_ORIGIN',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'REQUEST_TIMEOUT',
  'SERVER_BUSY',
];

/** Every code one operation may answer with: its own (`route.errors`) and the guard's. */
function errorCodesOf(route: RouteDefinition): HostErrorCode[] {
  return [...new Set([...route.errors, ...EVERY_ROUTE, ...(route.method === 'get' ? [] : STATE_CHANGING)])];
}

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: JsonSchema) => ({ 'application/json': { schema } });

function bodySchema(schema: z.ZodType): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: 'input' }) as JsonSchema;
  return rest;
}

/** The error responses of one operation, one per status, each listing the wire codes it may carry. */
function errorResponses(codes: readonly HostErrorCode[]): Record<string, JsonSchema> {
  const byStatus = new Map<number, Map<string, string>>();
  for (const code of codes) {
    const row: HostErrorRow = HOST_ERROR_CODES[code];
    const wire = wireCodeOf(code);
    const entries = byStatus.get(row.status) ?? new Map<string, string>();
    if (!entries.has(wire)) entries.set(wire, wire === code ? row.when : HOST_ERROR_CODES[wire as HostErrorCode].when);
    byStatus.set(row.status, entries);
  }
  return Object.fromEntries(
    [...byStatus.entries()]
      .sort(([a], [b]) => a - b)
      .map(([status, entries]) => {
        const wireCodes = [...entries.keys()].sort();
        const description = wireCodes.map((code) => `\`${code}\`: ${entries.get(code) ?? ''}`).join('; ');
        const schema = {
          allOf: [ref('Error'), { type: 'object', properties: { error: { type: 'object', properties: { code: { enum: wireCodes } } } } }],
        };
        return [String(status), { description, content: json(schema) }];
      }),
  );
}

function successContent({ schema, contentType }: RouteDefinition['success']): JsonSchema {
  const described = typeof schema === 'string' ? ref(schema) : schema;
  // An event stream's frames each carry one such value as `data`; the body itself is text.
  if (contentType === 'text/event-stream')
    return { [contentType]: { schema: { type: 'string', description: 'SSE frames', 'x-dsh-frame-data': described } } };
  return json(described);
}

function operationOf(route: RouteDefinition): JsonSchema {
  const parameters = [
    ...(route.path.includes(':id')
      ? [{ name: 'id', in: 'path', required: true, description: 'Session id or name (latest title)', schema: { type: 'string' } }]
      : []),
    ...(route.parameters ?? []),
  ];
  return {
    operationId: route.operationId,
    summary: route.summary,
    ...(parameters.length === 0 ? {} : { parameters }),
    ...(route.body === undefined ? {} : { requestBody: { required: route.body.required, content: json(ref(route.body.component)) } }),
    responses: {
      [String(route.success.status)]: { description: route.success.description, content: successContent(route.success) },
      ...errorResponses(errorCodesOf(route)),
    },
  };
}

const formatVersionSchema = {
  enum: [0, 1, 2, 3, 4, 5, 6, 7],
  description:
    'The format version the log was read from: for a session this host opened, the version its file had when this host first opened it; else the version it is stored in.',
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

/** The response shapes the routes name by `#/components/schemas/<name>`. */
const RESPONSE_SCHEMAS: Record<string, JsonSchema> = {
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
          candidates: { type: 'array', items: { type: 'string' }, description: 'NAME_AMBIGUOUS: every matching session id' },
          issues: { type: 'array', items: { type: 'object' }, description: 'BAD_REQUEST: each invalid field with its path' },
          holder: { type: 'object', description: 'SESSION_BUSY: the process holding the lease' },
          hint: { type: 'string', description: 'SESSION_BUSY: what to do instead (fork through POST /api/sessions/:id/fork)' },
        },
      },
    },
  },
  SessionEvent: {
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
  },
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
      worktree: { $ref: '#/components/schemas/WorktreeInfo' },
    },
  },
  WorktreeInfo: {
    type: 'object',
    description:
      "With `worktree: true`: the child's own directory (its cwd). `workspace` is `checkpoint` (the files at the cut) or `head` (no checkpoint at or before the cut: the repository's HEAD, and `warning` says so).",
    required: ['workspace', 'dir'],
    properties: {
      workspace: { type: 'string', enum: ['checkpoint', 'head'] },
      dir: { type: 'string' },
      branch: { type: 'string', description: '`dsh/<name>`, when the source works in a git checkout.' },
      checkpointSeq: { type: 'integer' },
      skipped: {
        type: 'array',
        items: { type: 'object', required: ['path', 'reason'], properties: { path: { type: 'string' }, reason: { type: 'string' } } },
      },
      warning: { type: 'string' },
    },
  },
  ImportAnswer: {
    type: 'object',
    required: ['format', 'warnings', 'sessions', 'files'],
    properties: {
      format: { type: ['string', 'null'], description: 'The format of the first file.' },
      warnings: { type: 'array', items: { type: 'string' }, description: 'What every file left out, in file order.' },
      sessions: { type: 'array', items: ref('ImportedSession'), description: 'Every stored session, parents first.' },
      files: {
        type: 'array',
        items: {
          type: 'object',
          required: ['format', 'warnings', 'sessions'],
          properties: {
            name: { type: 'string' },
            format: { type: 'string' },
            warnings: { type: 'array', items: { type: 'string' } },
            sessions: { type: 'array', items: ref('ImportedSession') },
          },
        },
      },
    },
  },
  ImportedSession: {
    type: 'object',
    required: ['id', 'parentSession', 'forkCut', 'events'],
    properties: {
      id: { type: 'string' },
      parentSession: { type: ['string', 'null'] },
      forkCut: { type: ['integer', 'null'] },
      events: { type: 'integer' },
      kept: { type: 'boolean', description: 'Stored already by an earlier import of the same file (left as it is).' },
      skipped: {
        type: 'boolean',
        description: 'Not imported: the store holds it (or its parent) with other events (only with `skipImported`).',
      },
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
};

/**
 * The OpenAPI 3.1 document of the HTTP API, generated from the route table the app is built from:
 * one operation (with its `operationId`) per served route, and error responses derived from
 * `HOST_ERROR_CODES`. Served at `GET /api/openapi.json`; usable to generate clients offline.
 */
export function openApiDocument(): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const requestBodies: Record<string, JsonSchema> = {};
  for (const route of HTTP_ROUTES) {
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    paths[path] = { ...paths[path], [route.method]: operationOf(route) };
    if (route.body !== undefined) requestBodies[route.body.component] = bodySchema(route.body.schema);
  }
  return {
    openapi: '3.1.0',
    info: { title: 'dsh host', version: '1', description: 'Durable agent sessions: live and cold sessions, exact-event forks, lineage.' },
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'Required when the server binds a non-loopback address.' },
      },
      schemas: { ...RESPONSE_SCHEMAS, ...requestBodies },
    },
    paths,
    security: [{ bearer: [] }, {}],
  };
}
