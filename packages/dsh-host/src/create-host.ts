import { resolve as resolvePath } from 'node:path';
import type { FormatVersion, SessionConfig, SessionEvent, SessionHeader } from 'dsh-codec';
import { Agent, createKeylessModel, pendingInputsOf, type AgentDelta, type Model, type Tool } from 'dsh-agent';
import { LATEST_CLOSED_TURN, type Session, type SessionStore, type SessionSummary } from 'dsh-session';
import { createHttpApp, type HttpAppOptions } from './create-http-app.js';
import { HostError } from './host-error.js';
import type {
  EventWatch,
  ForkOptions,
  ForkResult,
  Host,
  HostLogger,
  Observation,
  QueryOptions,
  QueryResult,
  SessionListItem,
  TelemetrySink,
} from './host-types.js';
import { lineageOf, type Lineage } from './lineage.js';
import { resolveSessionRef } from './resolve-session-ref.js';
import { selectForkCut } from './select-fork-cut.js';

/** Options of `createHost`. Only `store` is required; the model defaults to the offline keyless one. */
export type HostOptions = {
  store: SessionStore;
  model?: Model;
  /** Every tool the host offers; a session's `config.tools` narrows it (availability). */
  tools?: readonly Tool[];
  /** Receives each lifecycle's events from its `firstLifecycleSeq`. */
  telemetry?: TelemetrySink;
  logger?: HostLogger;
  system?: string;
  maxSteps?: number;
  /** Working directory of sessions whose config names none (default `process.cwd()`). */
  cwd?: string;
  /** Options of the in-process HTTP handler behind `host.fetch` (body limit, logger). */
  http?: Omit<HttpAppOptions, 'token'>;
};

type LiveEntry = { session: Session; agent: Agent; unsubscribe: () => void };

/** Remembered idempotent fork requests; the oldest are forgotten beyond this many. */
const IDEMPOTENCY_CAPACITY = 10_000;

/** The latest `session/config` cwd in `events`, else the header's. */
function configuredCwd(header: SessionHeader, events: readonly SessionEvent[]): string | undefined {
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index];
    if (event?.type !== 'session/config') continue;
    const cwd = (event.data as SessionConfig).cwd;
    if (cwd !== undefined) return cwd;
  }
  return header.cwd;
}

/** The latest `session/config` in `events` (latest wins whole), or `{}`. */
function latestConfig(events: readonly SessionEvent[]): SessionConfig {
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index];
    if (event?.type === 'session/config') return event.data as SessionConfig;
  }
  return {};
}

function sameConfig(a: SessionConfig, b: SessionConfig): boolean {
  return a.cwd === b.cwd && a.model === b.model && JSON.stringify(a.tools) === JSON.stringify(b.tools);
}

function latestTitle(events: readonly SessionEvent[]): string | undefined {
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index];
    if (event?.type === 'session/title') return (event.data as { title: string }).title;
  }
  return undefined;
}

/**
 * Creates a host over `store`: live sessions run an `Agent` in this process (holding the store's
 * single-writer lease), cold ones are read from the store. Every fork selects its cut from and
 * seeds the child with one immutable observation of the source. Methods throw `HostError`.
 */
export function createHost(options: HostOptions): Host {
  const { store } = options;
  const logger = options.logger ?? console;
  const model = options.model ?? createKeylessModel();
  const live = new Map<string, LiveEntry>();
  const opening = new Map<string, Promise<LiveEntry>>();
  const listeners = new Map<string, Set<(event: SessionEvent) => void>>();
  // Live deltas per session: ephemeral, so nothing is replayed to a late subscriber.
  const deltaListeners = new Map<string, Set<(delta: AgentDelta) => void>>();
  const idempotent = new Map<string, { fingerprint: string; result: Promise<ForkResult> }>();
  // The version each session's file had when this host first opened it: opening a legacy log
  // rewrites its header as V4, yet the session was still read from the older format.
  const readFrom = new Map<string, FormatVersion>();
  let app: ReturnType<typeof createHttpApp> | undefined;
  let closed = false;

  async function guarded<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw HostError.wrap(error) ?? error;
    }
  }

  function emit(sessionId: string, event: SessionEvent): void {
    if (options.telemetry !== undefined) {
      try {
        options.telemetry(event, { sessionId });
      } catch (error) {
        logger.error(`dsh-host: telemetry sink threw on ${sessionId} seq ${event.seq}`, error);
      }
    }
    for (const listener of listeners.get(sessionId) ?? []) listener(event);
  }

  /** Starts an agent over an open session; its lifecycle's events so far go out first, then each append. */
  async function publish(session: Session): Promise<LiveEntry> {
    let agent: Agent;
    try {
      agent = new Agent({
        session,
        model,
        ...(options.tools === undefined ? {} : { tools: options.tools }),
        ...(options.system === undefined ? {} : { system: options.system }),
        ...(options.maxSteps === undefined ? {} : { maxSteps: options.maxSteps }),
        ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      });
    } catch (error) {
      await session.close();
      throw error;
    }
    // Synchronous from here on: no append can slip between the backlog and the subscription.
    for (const event of session.events.slice(session.firstLifecycleSeq)) emit(session.id, event);
    const unsubscribeEvents = session.subscribe((event) => {
      emit(session.id, event);
    });
    const unsubscribeDeltas = agent.subscribeDeltas((delta) => {
      for (const listener of deltaListeners.get(session.id) ?? []) listener(delta);
    });
    const unsubscribe = () => {
      unsubscribeEvents();
      unsubscribeDeltas();
    };
    const entry = { session, agent, unsubscribe };
    live.set(session.id, entry);
    return entry;
  }

  function assertOpen(): void {
    if (closed) throw new HostError('INVALID_OPTION', 'This host is closed: create a new host to use the store again.');
  }

  async function liveEntry(id: string): Promise<LiveEntry> {
    assertOpen();
    const existing = live.get(id);
    if (existing !== undefined) return existing;
    let pending = opening.get(id);
    if (pending === undefined) {
      pending = openAndPublish(id).finally(() => opening.delete(id));
      opening.set(id, pending);
    }
    return pending;
  }

  /** `store.open` (crash repair), remembering the version the file was read from before it is rewritten. */
  async function openAndPublish(id: string): Promise<LiveEntry> {
    // One read: the store reports the version it decoded the log from.
    const session = await store.open(id);
    if (!readFrom.has(id)) readFrom.set(id, session.formatVersion);
    return publish(session);
  }

  async function exists(id: string): Promise<boolean> {
    if (live.has(id)) return true;
    try {
      return await store.has(id);
    } catch {
      // A name with characters an id may not hold is simply not an id.
      return false;
    }
  }

  async function resolveRef(ref: string): Promise<string> {
    if (await exists(ref)) return ref;
    const items = await listItems();
    const matches = items.filter((item) => item.title === ref);
    if (matches.length <= 1) return resolveSessionRef(items, ref);
    // Several sessions carry the name: tell the one that set it from forks that inherited it.
    const named = await Promise.all(
      matches.map(async (item) => {
        const { header, events } = live.get(item.id)?.session ?? (await store.inspect(item.id));
        const titleSeq = events.findLastIndex((event) => event.type === 'session/title');
        return { id: item.id, title: ref, titleInherited: titleSeq < header.inheritedEventCount };
      }),
    );
    return resolveSessionRef(named, ref);
  }

  function liveCwd(entry: LiveEntry): string {
    return entry.agent.cwd();
  }

  function sharingCwd(id: string, cwd: string | undefined): string[] {
    if (cwd === undefined) return [];
    const absolute = resolvePath(cwd);
    return [...live.entries()]
      .filter(([otherId, entry]) => otherId !== id && liveCwd(entry) === absolute)
      .map(([otherId]) => otherId)
      .sort();
  }

  function itemOf(summary: SessionSummary): SessionListItem {
    const entry = live.get(summary.id);
    if (entry === undefined) {
      const item: SessionListItem = {
        id: summary.id,
        createdAt: summary.createdAt,
        updatedAt: summary.updatedAt,
        lastSeq: summary.lastSeq,
        live: false,
        status: summary.busy ? 'busy' : summary.needsRepair ? 'needs-repair' : 'stored',
        formatVersion: readFrom.get(summary.id) ?? summary.formatVersion,
        sharesCwdWith: sharingCwd(summary.id, summary.cwd),
      };
      if (summary.title !== undefined) item.title = summary.title;
      if (summary.parentSession !== undefined) item.parentSession = summary.parentSession;
      if (summary.forkCut !== undefined) item.forkCut = summary.forkCut;
      if (summary.cwd !== undefined) item.cwd = summary.cwd;
      return item;
    }
    const { session, agent } = entry;
    const last = session.events[session.events.length - 1];
    const cwd = liveCwd(entry);
    const item: SessionListItem = {
      id: session.id,
      createdAt: session.header.createdAt,
      updatedAt: Math.max(summary.updatedAt, last?.time ?? 0),
      lastSeq: session.events.length - 1,
      live: true,
      status: agent.running ? 'running' : 'idle',
      formatVersion: readFrom.get(session.id) ?? 4,
      cwd,
      sharesCwdWith: sharingCwd(session.id, cwd),
    };
    const title = session.title;
    if (title !== undefined) item.title = title;
    if (session.header.parentSession !== undefined) item.parentSession = session.header.parentSession;
    if (session.header.forkCut !== undefined) item.forkCut = session.header.forkCut;
    return item;
  }

  async function listItems(): Promise<SessionListItem[]> {
    const summaries = await store.list();
    return summaries.map(itemOf).sort((a, b) => b.updatedAt - a.updatedAt || a.id.localeCompare(b.id));
  }

  /**
   * One immutable observation (SPEC §5.4, §12): the store's observation — a snapshot of a live log or
   * the stored events of a cold one, read once — plus what this host knows (queued input, cwd).
   */
  async function observation(id: string): Promise<Observation> {
    const source = await store.observe(id);
    const { header, events } = source;
    const entry = live.get(id);
    if (entry !== undefined && source.live) {
      const { session, agent } = entry;
      const cwd = liveCwd(entry);
      const pendingSeqs = new Set(agent.pendingInputs().map((input) => input.seq));
      const observed: Observation = {
        header,
        events,
        firstLifecycleSeq: session.firstLifecycleSeq,
        live: true,
        needsRepair: false,
        pendingInputs: events.filter((event) => pendingSeqs.has(event.seq)),
        formatVersion: readFrom.get(id) ?? source.formatVersion,
        cwd,
        sharesCwdWith: sharingCwd(id, cwd),
      };
      const title = session.title;
      if (title !== undefined) observed.title = title;
      return observed;
    }
    const cwd = configuredCwd(header, events);
    const observed: Observation = {
      header,
      events,
      // A cold session has no lifecycle; the next one would start after the stored prefix.
      firstLifecycleSeq: events.length,
      live: false,
      needsRepair: source.needsRepair,
      pendingInputs: pendingInputsOf(events, header.inheritedEventCount).map((input) => events[input.seq] as SessionEvent),
      formatVersion: readFrom.get(id) ?? source.formatVersion,
      sharesCwdWith: sharingCwd(id, cwd),
    };
    const title = latestTitle(events);
    if (title !== undefined) observed.title = title;
    if (cwd !== undefined) observed.cwd = cwd;
    return observed;
  }

  /**
   * One observation, handed as is to `store.fork`: the store checks the cut once against it (or
   * applies the omitted rule to it), builds the seed once and copies the validated prefix as bytes.
   * `configPatch` is merged over the config the child inherits at the cut (a `config` option replaces it).
   */
  async function forkOnce(sourceId: string, forkOptions: ForkOptions, configPatch?: SessionConfig): Promise<ForkResult> {
    const source = await store.observe(sourceId);
    const config = configPatch === undefined ? forkOptions.config : { ...latestConfig(source.events.slice(0, selectForkCut(source.events, forkOptions.atSeq) + 1)), ...configPatch };
    const child = await store.fork(source, {
      atSeq: forkOptions.atSeq ?? LATEST_CLOSED_TURN,
      ...(forkOptions.id === undefined ? {} : { id: forkOptions.id }),
      ...(forkOptions.title === undefined ? {} : { title: forkOptions.title }),
      ...(config === undefined ? {} : { config }),
    });
    // The store persisted the whole seed before returning; only now does the child go live.
    await publish(child);
    const cut = child.header.forkCut ?? -1;
    return { sessionId: child.id, parentSession: sourceId, forkCut: cut, inheritedEventCount: child.inheritedEventCount };
  }

  function fork(sourceRef: string, forkOptions: ForkOptions = {}): Promise<ForkResult> {
    return guarded(async () => {
      assertOpen();
      const { idempotencyKey, ...request } = forkOptions;
      if (idempotencyKey === undefined) return forkOnce(await resolveRef(sourceRef), request);
      const fingerprint = JSON.stringify([sourceRef, request.atSeq, request.id, request.title, request.config]);
      const remembered = idempotent.get(idempotencyKey);
      if (remembered !== undefined) {
        if (remembered.fingerprint !== fingerprint) {
          throw new HostError(
            'IDEMPOTENCY_MISMATCH',
            `Idempotency-Key '${idempotencyKey}' was first used for a different fork request: expected the same source and options, or a new key.`,
          );
        }
        return remembered.result;
      }
      const result = resolveRef(sourceRef).then((sourceId) => forkOnce(sourceId, request));
      idempotent.set(idempotencyKey, { fingerprint, result });
      if (idempotent.size > IDEMPOTENCY_CAPACITY) idempotent.delete(idempotent.keys().next().value as string);
      // A failed request is not remembered: retrying it with the same key may succeed.
      result.catch(() => idempotent.delete(idempotencyKey));
      return result;
    });
  }

  async function appendTitle(entry: LiveEntry, title: string): Promise<void> {
    await entry.agent.betweenTurns(async () => {
      entry.session.append('session/title', { title });
      await entry.session.flush();
    });
  }

  async function release(id: string): Promise<void> {
    const entry = live.get(id);
    if (entry === undefined) return;
    live.delete(id);
    entry.unsubscribe();
    await entry.agent.close();
    await entry.session.close();
  }

  async function mostRecentForCwd(cwd: string): Promise<string> {
    const absolute = resolvePath(cwd);
    const match = (await listItems()).find((item) => item.cwd !== undefined && resolvePath(item.cwd) === absolute);
    if (match === undefined) throw new HostError('SESSION_NOT_FOUND', `No session to continue in ${absolute}: none has this working directory.`);
    return match.id;
  }

  async function query(queryOptions: QueryOptions): Promise<QueryResult> {
    assertOpen();
    const { prompt, forkSession = false } = queryOptions;
    const hasSource = queryOptions.resume !== undefined || queryOptions.continue === true;
    if (forkSession && !hasSource) throw new HostError('INVALID_OPTION', 'forkSession needs a session to fork: pass resume (an id or name) or continue.');
    if (queryOptions.resumeSessionAt !== undefined && !forkSession) {
      throw new HostError('INVALID_OPTION', 'resumeSessionAt needs forkSession: a continued session only grows at its end, so an earlier point is reached by forking there.');
    }
    const config: SessionConfig = {};
    if (queryOptions.tools !== undefined) config.tools = queryOptions.tools;
    if (queryOptions.cwd !== undefined) config.cwd = resolvePath(queryOptions.cwd);
    if (queryOptions.model !== undefined) config.model = queryOptions.model;
    const configured = Object.keys(config).length > 0;

    let sessionId: string;
    let forked: ForkResult | undefined;
    if (!hasSource) {
      const session = await store.create({
        ...(queryOptions.title === undefined ? {} : { title: queryOptions.title }),
        ...(configured ? { config } : {}),
      });
      sessionId = (await publish(session)).session.id;
    } else {
      const sourceId =
        queryOptions.resume !== undefined
          ? await resolveRef(queryOptions.resume)
          : await mostRecentForCwd(queryOptions.cwd ?? options.cwd ?? process.cwd());
      if (forkSession) {
        forked = await forkOnce(
          sourceId,
          {
            ...(queryOptions.resumeSessionAt === undefined ? {} : { atSeq: queryOptions.resumeSessionAt }),
            ...(queryOptions.title === undefined ? {} : { title: queryOptions.title }),
          },
          configured ? config : undefined,
        );
        sessionId = forked.sessionId;
      } else {
        sessionId = sourceId;
        const entry = await liveEntry(sourceId);
        if (queryOptions.title !== undefined && queryOptions.title !== entry.session.title) await appendTitle(entry, queryOptions.title);
        const { header } = entry.session;
        const current: SessionConfig = { ...(header.cwd === undefined ? {} : { cwd: header.cwd }), ...entry.session.config };
        const next = { ...current, ...config };
        // Only a real change is recorded: `continue` passes the cwd it matched on, which changes nothing.
        if (configured && !sameConfig(current, next)) await entry.agent.configure(next);
      }
    }
    const { agent } = await liveEntry(sessionId);
    const { inputId } = agent.enqueue(prompt);
    const turn = await agent.result(inputId);
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

  const host: Host = {
    create: (createOptions = {}) =>
      guarded(async () => {
        assertOpen();
        const session = await store.create(createOptions);
        await publish(session);
        return { sessionId: session.id };
      }),
    list: () => guarded(listItems),
    resolve: (ref) => guarded(() => resolveRef(ref)),
    observe: (ref) => guarded(async () => observation(await resolveRef(ref))),
    open: (ref) =>
      guarded(async () => {
        const id = await resolveRef(ref);
        await liveEntry(id);
        return observation(id);
      }),
    send: (ref, text) =>
      guarded(async () => {
        const entry = await liveEntry(await resolveRef(ref));
        return entry.agent.enqueue(text);
      }),
    fork,
    rename: (ref, title) =>
      guarded(async () => {
        await appendTitle(await liveEntry(await resolveRef(ref)), title);
      }),
    compact: (ref) =>
      guarded(async () => {
        const entry = await liveEntry(await resolveRef(ref));
        return entry.agent.compact();
      }),
    cancel: (ref) =>
      guarded(async () => {
        const entry = live.get(await resolveRef(ref));
        return { cancelled: entry?.agent.cancel() ?? false };
      }),
    lineage: (ref): Promise<Lineage> =>
      guarded(async () => {
        const id = await resolveRef(ref);
        return lineageOf(await listItems(), id);
      }),
    idle: (ref) =>
      guarded(async () => {
        await live.get(await resolveRef(ref))?.agent.idle();
      }),
    watchDeltas: (ref, listener) =>
      guarded(async (): Promise<EventWatch> => {
        const id = await resolveRef(ref);
        const set = deltaListeners.get(id) ?? new Set();
        set.add(listener);
        deltaListeners.set(id, set);
        return {
          close: () => {
            set.delete(listener);
            if (set.size === 0 && deltaListeners.get(id) === set) deltaListeners.delete(id);
          },
        };
      }),
    watch: (ref, from, listener) =>
      guarded(async (): Promise<EventWatch> => {
        const id = await resolveRef(ref);
        let next = Math.max(0, from);
        let replaying = true;
        const buffered: SessionEvent[] = [];
        const deliver = (event: SessionEvent): void => {
          if (event.seq < next) return;
          next = event.seq + 1;
          listener(event);
        };
        const onEvent = (event: SessionEvent): void => {
          if (replaying) buffered.push(event);
          else deliver(event);
        };
        const set = listeners.get(id) ?? new Set();
        set.add(onEvent);
        listeners.set(id, set);
        const close = (): void => {
          set.delete(onEvent);
          if (set.size === 0 && listeners.get(id) === set) listeners.delete(id);
        };
        try {
          const { events } = await observation(id);
          for (const event of events) deliver(event);
          for (const event of buffered.splice(0)) deliver(event);
          replaying = false;
        } catch (error) {
          close();
          throw error;
        }
        return { close };
      }),
    query: (queryOptions) => guarded(() => query(queryOptions)),
    release: (ref) => guarded(async () => release(await resolveRef(ref))),
    fetch: async (request) => {
      app ??= createHttpApp(host, options.http);
      return app.fetch(request);
    },
    close: () =>
      guarded(async () => {
        closed = true;
        await Promise.allSettled(opening.values());
        const results = await Promise.allSettled([...live.keys()].map(release));
        const failure = results.find((outcome) => outcome.status === 'rejected');
        if (failure !== undefined) throw failure.reason;
      }),
  };
  return host;
}
