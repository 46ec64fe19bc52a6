/** @module `createHost`: builds one `HostContext` and maps each `Host` method to its operation module, every failure leaving as a `HostError` (see AGENTS.md "Inside dsh-host"). */
import { createKeylessModel } from 'dsh-agent';
import type { createHttpApp } from './http/create-http-app.js';
import { deleteSession } from './operations/delete-session.js';
import { forkPeers, turnResult } from './operations/fork-peers.js';
import { forkRequest } from './operations/fork-requests.js';
import { HostError } from './host-error.js';
import type { HostContext, HostOptions } from './host-context.js';
import type { Host } from './host-types.js';
import { lineageOf } from './operations/lineage.js';
import { listSessions, mostRecentForCwd, resolveRef } from './operations/list-sessions.js';
import { observation } from './operations/observe-session.js';
import { runQuery } from './operations/run-query.js';
import { liveLimitsOf, stopIdleSweep } from './operations/live-slots.js';
import { appendTitle, assertOpen, liveEntry, openLive, release } from './operations/session-registry.js';
import { watchDeltas, watchEvents } from './operations/watch-events.js';
import { withStoredCheckpointsChoice } from './operations/stored-checkpoints-choice.js';

export type { HostOptions } from './host-context.js';

/**
 * The one error-wrapping of the host: every `Host` method runs through it, so every failure leaves
 * the host as a `HostError` when it has a known code; unknown ones pass unchanged (the HTTP app's
 * `onError` answers them with the fixed 500). Operations throw their own and their layers' errors as
 * they come.
 */
async function guarded<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw HostError.wrap(error) ?? error;
  }
}

/**
 * Creates a host over `store`: live sessions run an `Agent` in this process (holding the store's
 * single-writer lease), cold ones are read from the store. Every fork selects its cut from and
 * seeds the child with one immutable observation of the source. Methods throw `HostError`.
 * Each operation lives in its own module and takes this host's `HostContext` (see AGENTS.md).
 */
export function createHost(options: HostOptions): Host {
  const context: HostContext = {
    store: options.store,
    options,
    logger: options.logger ?? console,
    model: options.model ?? createKeylessModel(),
    live: new Map(),
    opening: new Map(),
    listeners: new Map(),
    deltaListeners: new Map(),
    idempotent: new Map(),
    readFrom: new Map(),
    closingLive: new Map(),
    liveLimits: liveLimitsOf(options),
    idleSweep: undefined,
    closed: false,
  };
  const { store, live, opening } = context;
  // The HTTP face (hono) and transcript import (dsh-import's readers) load on their first use: a command
  // that only forks or lists starts without them (`dsh-host/core`).
  let app: Promise<ReturnType<typeof createHttpApp>> | undefined;

  const host: Host = {
    create: (createOptions = {}) =>
      guarded(async () => {
        assertOpen(context);
        const config = withStoredCheckpointsChoice(context, createOptions.config);
        const { session } = await openLive(context, () => store.create({ ...createOptions, ...(config === undefined ? {} : { config }) }));
        return { sessionId: session.id };
      }),
    list: (options) => guarded(() => listSessions(context, options)),
    resolve: (ref) => guarded(() => resolveRef(context, ref)),
    mostRecentForCwd: (cwd) => guarded(() => mostRecentForCwd(context, cwd)),
    observe: (ref) => guarded(async () => observation(context, await resolveRef(context, ref))),
    open: (ref) =>
      guarded(async () => {
        const id = await resolveRef(context, ref);
        await liveEntry(context, id);
        return observation(context, id);
      }),
    send: (ref, text) =>
      guarded(async () => {
        const entry = await liveEntry(context, await resolveRef(context, ref));
        return entry.agent.enqueue(text);
      }),
    fork: (sourceRef, forkOptions) => guarded(() => forkRequest(context, sourceRef, forkOptions)),
    peers: (baselineRef, peersOptions) => guarded(() => forkPeers(context, baselineRef, peersOptions)),
    turnResult: (ref, inputId) => guarded(() => turnResult(context, ref, inputId)),
    rename: (ref, title) =>
      guarded(async () => {
        await appendTitle(await liveEntry(context, await resolveRef(context, ref)), title);
      }),
    compact: (ref) =>
      guarded(async () => {
        const entry = await liveEntry(context, await resolveRef(context, ref));
        return entry.agent.compact();
      }),
    cancel: (ref) =>
      guarded(async () => {
        const entry = live.get(await resolveRef(context, ref));
        return { cancelled: entry?.agent.cancel() ?? false };
      }),
    lineage: (ref) =>
      guarded(async () => {
        const id = await resolveRef(context, ref);
        return lineageOf(await listSessions(context), id);
      }),
    idle: (ref) =>
      guarded(async () => {
        await live.get(await resolveRef(context, ref))?.agent.idle();
      }),
    watchDeltas: (ref, listener) => guarded(async () => watchDeltas(context, await resolveRef(context, ref), listener)),
    watch: (ref, from, listener) => guarded(async () => watchEvents(context, await resolveRef(context, ref), from, listener)),
    query: (queryOptions) => guarded(() => runQuery(context, queryOptions)),
    release: (ref) => guarded(async () => release(context, await resolveRef(context, ref))),
    importTranscripts: (inputs, importOptions) =>
      guarded(async () => {
        assertOpen(context);
        const { importIntoStore } = await import('./operations/import-into-store.js');
        return importIntoStore(store, inputs, importOptions);
      }),
    delete: (ref) => guarded(() => deleteSession(context, ref)),
    fetch: async (request) => {
      app ??= import('./http/create-http-app.js').then(({ createHttpApp }) => createHttpApp(host, options.http));
      return (await app).fetch(request);
    },
    close: () =>
      guarded(async () => {
        context.closed = true;
        stopIdleSweep(context);
        await Promise.allSettled(opening.values());
        await Promise.allSettled(context.closingLive.values());
        const results = await Promise.allSettled([...live.keys()].map((id) => release(context, id)));
        const failure = results.find((outcome) => outcome.status === 'rejected');
        if (failure !== undefined) throw failure.reason;
      }),
  };
  return host;
}
