/** @module `HTTP_ROUTES`: the route table of the HTTP API (SPEC §10), one row per operation; the app and the OpenAPI document are built from it. */
import { defineRoute, type RouteDefinition } from './define-route.js';
import { HostError } from '../host-error.js';
import { idempotencyKeyOf, idempotencyKeyParameter, stripUndefined } from './route-helpers.js';
import { eventsQuerySchema, forkBodySchema, importBodySchema, messageBodySchema, peersBodySchema } from './request-schemas.js';
import { streamSessionEvents } from './stream-session-events.js';
import { STREAM_RETRY_AFTER_SECONDS, type StreamSlot } from './stream-slots.js';
import { BODY, LIVE, REF, STORE, STORED, WORKTREE } from './route-error-groups.js';
import { SESSION_ROUTES } from './session-routes.js';
import { refuseTakenName } from './refuse-taken-name.js';

/**
 * Every operation of the HTTP API (SPEC §10), in one table: `createHttpApp` registers them and
 * `openApiDocument` describes them, so the served routes and the document cannot drift.
 * @internal
 */
export const HTTP_ROUTES: readonly RouteDefinition[] = [
  ...SESSION_ROUTES,
  defineRoute({
    method: 'post',
    path: '/api/sessions/:id/messages',
    operationId: 'sendMessage',
    summary: 'Queue user input (input/queued); a turn claims it',
    body: { schema: messageBodySchema, component: 'MessageBody', required: true },
    success: {
      status: 202,
      description: 'Queued',
      schema: { type: 'object', required: ['inputId'], properties: { inputId: { type: 'string' } } },
    },
    errors: [...BODY, ...REF, ...LIVE],
    handle: async ({ context, host, body }) => context.json(await host.send(context.req.param('id') ?? '', body.text), 202),
  }),
  defineRoute({
    method: 'post',
    path: '/api/sessions/:id/fork',
    operationId: 'forkSession',
    summary: 'Fork at an exact seq, or (atSeq omitted) after the latest closed turn and its standalone tail',
    body: { schema: forkBodySchema, component: 'ForkBody', required: false },
    parameters: [idempotencyKeyParameter],
    success: { status: 201, description: 'Forked', schema: 'ForkResult' },
    errors: [
      ...BODY,
      ...REF,
      ...STORED,
      ...WORKTREE,
      'INVALID_CUT',
      'IDEMPOTENCY_MISMATCH',
      'SESSION_EXISTS',
      'NAME_TAKEN',
      'WRITE_FAILED',
      'TOO_MANY_SESSIONS',
    ],
    handle: async ({ context, host, body }) => {
      const idempotencyKey = idempotencyKeyOf(context.req.header('idempotency-key'));
      // A retried fork (same Idempotency-Key) names the child it made before: the store answers it.
      if (body.title !== undefined) await refuseTakenName(host, body.title.text, undefined, idempotencyKey);
      const config = body.config === undefined ? undefined : stripUndefined(body.config);
      const checkpoints = body.checkpoints === undefined ? {} : { checkpoints: body.checkpoints };
      const result = await host.fork(context.req.param('id') ?? '', {
        ...(body.atSeq === undefined ? {} : { atSeq: body.atSeq }),
        ...(body.title === undefined ? {} : { title: body.title }),
        // `checkpoints` joins `config` (which replaces the inherited one), else is merged over the inherited one.
        ...(config === undefined
          ? body.checkpoints === undefined
            ? {}
            : { configPatch: checkpoints }
          : { config: { ...checkpoints, ...config } }),
        ...(body.worktree === true ? { worktree: true } : {}),
        ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
      });
      return context.json(result, 201);
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/sessions/:id/peers',
    operationId: 'forkPeers',
    summary: 'Fork peers (SPEC §20): one observation of the baseline, one cut, one child per prompt, each prompt started as its first turn',
    body: { schema: peersBodySchema, component: 'PeersBody', required: true },
    success: {
      status: 201,
      description: 'Forked and started',
      schema: {
        type: 'object',
        required: ['baseline', 'cut', 'peers'],
        properties: {
          baseline: { type: 'string' },
          cut: { type: 'integer' },
          peers: {
            type: 'array',
            items: {
              type: 'object',
              required: ['sessionId', 'title'],
              properties: {
                sessionId: { type: 'string' },
                title: { type: 'string' },
                worktree: { $ref: '#/components/schemas/WorktreeInfo' },
              },
            },
          },
        },
      },
    },
    errors: [...BODY, ...REF, ...STORED, ...WORKTREE, 'INVALID_CUT', 'INVALID_TITLE', 'NAME_TAKEN', 'WRITE_FAILED', 'TOO_MANY_SESSIONS'],
    handle: async ({ context, host, body }) => {
      const result = await host.peers(context.req.param('id') ?? '', {
        ...(body.atSeq === undefined ? {} : { atSeq: body.atSeq }),
        peers: body.peers.map((peer) => ({
          prompt: peer.prompt,
          ...(peer.title === undefined ? {} : { title: peer.title }),
          ...(peer.config === undefined && body.checkpoints === undefined
            ? {}
            : {
                config: {
                  ...(body.checkpoints === undefined ? {} : { checkpoints: body.checkpoints }),
                  ...stripUndefined(peer.config ?? {}),
                },
              }),
        })),
        ...(body.worktree === true ? { worktree: true } : {}),
      });
      const peers = result.peers.map((peer) => ({
        sessionId: peer.sessionId,
        title: peer.title,
        ...(peer.worktree === undefined ? {} : { worktree: peer.worktree }),
      }));
      return context.json({ baseline: result.baseline, cut: result.cut, peers }, 201);
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/sessions/:id/compact',
    operationId: 'compactSession',
    summary: 'Manual compaction between turns: summarize the model history and replace it (ignorable compaction/* events)',
    success: {
      status: 200,
      description: '{ compacted: false, reason } or { compacted: true, summary, replaced: { start, end }, startSeq, endSeq }',
      schema: { type: 'object', required: ['compacted'], properties: { compacted: { type: 'boolean' } } },
    },
    errors: [
      ...REF,
      ...LIVE,
      'COMPACTION_IN_PROGRESS',
      'TURN_IN_PROGRESS',
      'COMPACTION_FAILED',
      'MODEL_CONFIG',
      'MODEL_HTTP_ERROR',
      'MODEL_UNREACHABLE',
      'MODEL_BAD_RESPONSE',
      'MODEL_RESPONSE_INVALID',
      'MODEL_STREAM_ERROR',
      'MODEL_TIMEOUT',
      'SCRIPT_EXHAUSTED',
      'SCRIPTED_FAILURE',
    ],
    handle: async ({ context, host }) => context.json(await host.compact(context.req.param('id') ?? '')),
  }),
  defineRoute({
    method: 'post',
    path: '/api/sessions/:id/cancel',
    operationId: 'cancelTurn',
    summary: 'Cancel the running turn',
    success: {
      status: 200,
      description: 'Whether a turn was running',
      schema: { type: 'object', required: ['cancelled'], properties: { cancelled: { type: 'boolean' } } },
    },
    errors: [...REF],
    handle: async ({ context, host }) => context.json(await host.cancel(context.req.param('id') ?? '')),
  }),
  defineRoute({
    method: 'get',
    path: '/api/sessions/:id/lineage',
    operationId: 'getLineage',
    summary: 'Ancestors and descendants',
    success: { status: 200, description: 'Lineage', schema: 'Lineage' },
    errors: [...REF],
    handle: async ({ context, host }) => context.json(await host.lineage(context.req.param('id') ?? '')),
  }),
  defineRoute({
    method: 'post',
    path: '/api/import',
    operationId: 'importTranscripts',
    summary:
      'Import Claude Code, Codex or pi transcripts (`text`, or `files` for a main session with its subagents or a rollout with its forks): every file read, then linked, then each session stored atomically, parents first',
    body: { schema: importBodySchema, component: 'ImportBody', required: true },
    maxBodyBytes: ({ maxImportBytes }) => maxImportBytes,
    success: {
      status: 201,
      description: 'Imported: the sessions of each file, main line first (`kept`: stored by an earlier, cut-short import)',
      schema: 'ImportAnswer',
    },
    errors: [
      ...BODY,
      ...STORE,
      ...STORED,
      'UNKNOWN_FORMAT',
      'FORMAT_MISMATCH',
      'MALFORMED_LINE',
      'EMPTY_TRANSCRIPT',
      'INVALID_OPTION',
      'INVALID_TITLE',
      'SESSION_EXISTS',
      'SESSION_NOT_FOUND',
      'NAME_TAKEN',
      'WRITE_FAILED',
    ],
    handle: async ({ context, host, body }) => {
      if (body.title !== undefined) await refuseTakenName(host, body.title);
      const inputs = body.files ?? [{ text: body.text ?? '' }];
      const report = await host.importTranscripts(
        inputs.map((file) => (file.name === undefined ? { text: file.text } : { text: file.text, name: file.name })),
        { ...(body.format === undefined ? {} : { format: body.format }), ...(body.title === undefined ? {} : { title: body.title }) },
      );
      const first = report.files[0];
      return context.json(
        {
          format: first?.format ?? null,
          warnings: report.files.flatMap((file) => file.warnings),
          sessions: report.files.flatMap((file) => file.sessions),
          files: report.files,
        },
        201,
      );
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/sessions/:id/events',
    operationId: 'streamEvents',
    summary:
      'Server-sent events: every event from a seq, then live ones (`id` is the seq, `data` the event JSON); while a model response streams, ephemeral `event: delta` frames `{turn, step, text?, reasoning?}` without id. At most `maxStreams` (256) streams are open at once (then 503 `TOO_MANY_STREAMS` with `Retry-After`); a stream whose client stops reading is closed once 8 MiB wait for it (reconnect with `Last-Event-ID`)',
    parameters: [
      { name: 'from', in: 'query', description: 'First seq to send (default 0)', schema: { type: 'integer', minimum: 0 } },
      {
        name: 'Last-Event-ID',
        in: 'header',
        description: 'Reconnect: resume after this seq (wins over `from`)',
        schema: { type: 'string' },
      },
    ],
    success: { status: 200, description: 'Event stream', schema: 'SessionEvent', contentType: 'text/event-stream' },
    errors: [...BODY, ...REF, ...STORED, 'TOO_MANY_STREAMS'],
    handle: async ({ context, host, streams }) => {
      const query = eventsQuerySchema.safeParse({ from: context.req.query('from') });
      if (!query.success) {
        throw new HostError('BAD_REQUEST', 'Invalid query — from: expected a non-negative integer.', {
          details: { issues: [{ path: ['query', 'from'], message: 'expected a non-negative integer' }] },
        });
      }
      const lastEventId = context.req.header('last-event-id');
      let from = query.data.from === undefined ? 0 : Number(query.data.from);
      if (lastEventId !== undefined && /^\d{1,15}$/.test(lastEventId.trim())) from = Number(lastEventId.trim()) + 1;
      // The slot is taken before any store work, so a flood of stream requests costs nothing else.
      let slot: StreamSlot;
      try {
        slot = streams.slots.acquire();
      } catch (error) {
        context.header('Retry-After', String(STREAM_RETRY_AFTER_SECONDS));
        throw error;
      }
      try {
        const sessionId = await host.resolve(context.req.param('id') ?? '');
        return await streamSessionEvents(context, host, sessionId, from, streams, slot);
      } catch (error) {
        slot.release();
        throw error;
      }
    },
  }),
];
