/** @module `runQuery`: the Claude-Agent-SDK-shaped `host.query()`: a new, resumed or forked session, its prompt run as one turn. */
import { resolve as resolvePath } from 'node:path';
import type { SessionConfig } from 'dsh-codec';
import type { TurnResult } from 'dsh-agent';
import { forkOnce } from './fork-requests.js';
import { HostError } from '../host-error.js';
import type { HostContext, LiveEntry } from '../host-context.js';
import type { ForkResult, QueryOptions, QueryResult } from '../host-types.js';
import { mostRecentForCwd, resolveRef } from './list-sessions.js';
import { recordSystemPrompt } from './record-system-prompt.js';
import { withStoredCheckpointsChoice } from './stored-checkpoints-choice.js';
import { appendTitle, assertOpen, liveEntry, openLive } from './session-registry.js';

function sameConfig(a: SessionConfig, b: SessionConfig): boolean {
  return a.cwd === b.cwd && a.model === b.model && a.checkpoints === b.checkpoints && JSON.stringify(a.tools) === JSON.stringify(b.tools);
}

/**
 * Resolves the model the session's next turn runs on, so a recorded spec dsh cannot run (say, an
 * import's) is refused with the resolver's error before the turn starts, nothing recorded (SPEC §25).
 */
async function checkModel(context: HostContext, entry: LiveEntry): Promise<void> {
  const resolveModel = context.options.resolveModel;
  const spec = entry.agent.modelName();
  if (resolveModel === undefined || spec === context.model.name) return;
  await resolveModel(spec);
}

/** Records `removed` taken out of what the session has available, when any of them is available. */
async function removeTools(entry: LiveEntry, removed: readonly string[] | undefined): Promise<void> {
  if (removed === undefined) return;
  const available = entry.agent.availableTools().map((tool) => tool.name);
  if (!available.some((name) => removed.includes(name))) return;
  const { header } = entry.session;
  await entry.agent.configure({
    ...(header.cwd === undefined ? {} : { cwd: header.cwd }),
    ...entry.session.config,
    tools: available.filter((name) => !removed.includes(name)),
  });
}

/**
 * `host.query()`: picks the session (new, resumed, continued, or a fork of one), queues the prompt
 * and resolves when the turn that claims it ends.
 * @internal
 */
export async function runQuery(context: HostContext, queryOptions: QueryOptions): Promise<QueryResult> {
  const { store, options } = context;
  assertOpen(context);
  const { prompt, forkSession = false } = queryOptions;
  const hasSource = queryOptions.resume !== undefined || queryOptions.continue === true;
  if (forkSession && !hasSource)
    throw new HostError('INVALID_OPTION', 'forkSession needs a session to fork: pass resume (an id or name) or continue.');
  if (queryOptions.sessionId !== undefined && hasSource && !forkSession) {
    throw new HostError(
      'INVALID_OPTION',
      'sessionId names a new session: a resumed session keeps its id (add forkSession to give the fork this id).',
    );
  }
  if (queryOptions.resumeSessionAt !== undefined && !forkSession) {
    throw new HostError(
      'INVALID_OPTION',
      'resumeSessionAt needs forkSession: a continued session only grows at its end, so an earlier point is reached by forking there.',
    );
  }
  const config: SessionConfig = {};
  if (queryOptions.tools !== undefined) config.tools = queryOptions.tools;
  if (queryOptions.cwd !== undefined) config.cwd = resolvePath(queryOptions.cwd);
  if (queryOptions.model !== undefined) config.model = queryOptions.model;
  if (queryOptions.checkpoints !== undefined) config.checkpoints = queryOptions.checkpoints;
  const configured = Object.keys(config).length > 0;

  let sessionId: string;
  let forked: ForkResult | undefined;
  if (!hasSource) {
    const newConfig = withStoredCheckpointsChoice(context, configured ? config : undefined);
    const created = await openLive(context, () =>
      store.create({
        ...(queryOptions.sessionId === undefined ? {} : { id: queryOptions.sessionId }),
        ...(queryOptions.title === undefined ? {} : { title: queryOptions.title }),
        ...(newConfig === undefined ? {} : { config: newConfig }),
      }),
    );
    sessionId = created.session.id;
  } else {
    const sourceId =
      queryOptions.resume !== undefined
        ? await resolveRef(context, queryOptions.resume)
        : await mostRecentForCwd(context, queryOptions.cwd ?? options.cwd ?? process.cwd());
    if (forkSession) {
      forked = await forkOnce(context, sourceId, {
        ...(queryOptions.resumeSessionAt === undefined ? {} : { atSeq: queryOptions.resumeSessionAt }),
        ...(queryOptions.sessionId === undefined ? {} : { id: queryOptions.sessionId }),
        ...(queryOptions.title === undefined ? {} : { title: queryOptions.title }),
        ...(configured ? { configPatch: config } : {}),
      });
      sessionId = forked.sessionId;
    } else {
      sessionId = sourceId;
      const entry = await liveEntry(context, sourceId);
      if (queryOptions.title !== undefined && queryOptions.title !== entry.session.title) await appendTitle(entry, queryOptions.title);
      const { header } = entry.session;
      const current: SessionConfig = { ...(header.cwd === undefined ? {} : { cwd: header.cwd }), ...entry.session.config };
      const next = { ...current, ...config };
      // With per-session models, a session that recorded none records the one that answers it, so its log never says less than what ran.
      if (next.model === undefined && options.resolveModel !== undefined) next.model = entry.agent.modelName();
      // Only a real change is recorded: `continue` passes the cwd it matched on, which changes nothing.
      if (!sameConfig(current, next)) await entry.agent.configure(next);
    }
  }
  const entry = await liveEntry(context, sessionId);
  const { agent } = entry;
  await checkModel(context, entry);
  await removeTools(entry, queryOptions.disallowedTools);
  await recordSystemPrompt(context, entry, {
    ...(queryOptions.systemPrompt === undefined ? {} : { systemPrompt: queryOptions.systemPrompt }),
    ...(queryOptions.appendSystemPrompt === undefined ? {} : { appendSystemPrompt: queryOptions.appendSystemPrompt }),
  });
  const cwd = agent.cwd();
  queryOptions.onStart?.({
    sessionId,
    ...(cwd === undefined ? {} : { cwd }),
    model: agent.modelName(),
    tools: agent.availableTools().map((tool) => tool.name),
  });
  const onDelta = queryOptions.onDelta;
  const stopDeltas = onDelta === undefined ? undefined : agent.subscribeDeltas(onDelta);
  let turn: TurnResult;
  try {
    const { inputId } = agent.enqueue(prompt);
    turn = await agent.result(inputId);
  } finally {
    stopDeltas?.();
  }
  const result: QueryResult = {
    sessionId,
    result: turn.text,
    isError: turn.isError,
    stopReason: turn.reason.kind,
    turn: turn.turn,
  };
  if (turn.reason.kind === 'error') {
    result.errorCode = turn.reason.error.code;
    result.errorMessage = turn.reason.error.message;
  }
  if (forked !== undefined) {
    result.parentSession = forked.parentSession;
    result.forkCut = forked.forkCut;
  }
  return result;
}
