/** @module `defineRoute`: the shape of one row of the route table (method, path, body schema, documented answers, handler), shared by the app and the OpenAPI document. */
import type { Context } from 'hono';
import type { z } from 'zod';
import type { HostErrorCode } from '../host-error-codes.js';
import type { Host } from '../host-types.js';
import type { StreamLimits } from './stream-session-events.js';
import type { StreamSlots } from './stream-slots.js';

/** What a route handler receives: the hono context, the host, the validated body and the HTTP options. */
export type RouteInput<Body> = {
  context: Context;
  host: Host;
  /** The request body, parsed and validated by the route's `body` schema (`{}` when empty). */
  body: Body;
  /** The app's SSE limits: heartbeat interval, bytes held for a client that does not read, open-stream slots. */
  streams: StreamLimits & { slots: StreamSlots };
  /** The app's OpenAPI document (built once, on first use). */
  document: () => Record<string, unknown>;
};

/** An extra request parameter for the OpenAPI document (path `id` is added for paths with `:id`). */
export type RouteParameter = { name: string; in: 'query' | 'header'; description: string; schema: Record<string, unknown> };

/**
 * One operation of the HTTP API: the app registers `handle` at `method path` and the OpenAPI document
 * is generated from the same definition, so neither can drift from the other.
 * @internal
 */
export type RouteDefinition<Body = unknown> = {
  method: 'get' | 'post' | 'patch' | 'delete';
  /** hono path, `:id` for the session id or name. */
  path: string;
  operationId: string;
  summary: string;
  /** The JSON body schema; the app answers 400 `BAD_REQUEST` naming the field path when it fails. */
  body?: { schema: z.ZodType<Body>; component: string; required: boolean };
  parameters?: readonly RouteParameter[];
  /** This route's body limit when it differs from the app's (`maxBodyBytes`); e.g. a transcript to import. */
  maxBodyBytes?: (options: { maxBodyBytes: number; maxImportBytes: number }) => number;
  success: {
    status: 200 | 201 | 202;
    description: string;
    /** A `#/components/schemas` name or an inline JSON schema (of each event, for a stream). */
    schema: string | Record<string, unknown>;
    /** Default `application/json`. */
    contentType?: 'text/event-stream';
  };
  /** Every code this operation can answer with besides the guard's and storage's, which all routes share. */
  errors: readonly HostErrorCode[];
  handle(input: RouteInput<Body>): Promise<Response> | Response;
};

/** Types a route definition by its body schema. @internal */
export function defineRoute<Body = Record<string, never>>(route: RouteDefinition<Body>): RouteDefinition {
  return route;
}
