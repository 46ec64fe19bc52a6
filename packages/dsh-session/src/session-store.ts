import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { FormatVersion, JsonValue, SessionConfig, SessionEvent, SessionHeader } from 'dsh-codec';
import { closeOpenTail } from './close-open-tail.js';
import { decodeStored, type DecodedLog } from './decode-stored.js';
import { deepFreeze } from './deep-freeze.js';
import type { InheritedRecords, SessionBackend, SessionWriter } from './session-backend.js';
import { creatingSink, resumingSink } from './store-sinks.js';
import { SessionError } from './session-error.js';
import { assertSessionId, isValidSessionId } from './session-id.js';
import { Session } from './session.js';
import { busyError, existsError } from './store-errors.js';
import { summarize, type SessionSummary } from './summarize.js';
import { trustSeedPrefix } from './trusted-seed.js';

/** Options of `SessionStore.create`. */
export type CreateSessionOptions = { id?: string; title?: string; config?: SessionConfig };

/** An immutable observation of a source's events: the events themselves or an object holding them. */
export type ForkSource = readonly SessionEvent[] | { readonly events: readonly SessionEvent[] };

/** Options of `SessionStore.fork`. */
export type ForkSessionOptions = {
  /** The exact seq the child inherits through (inclusive). */
  atSeq: number;
  id?: string;
  title?: string;
  config?: SessionConfig;
  /** The source events to fork from; default: the live log when this store holds it, else the stored events. */
  from?: ForkSource;
  /** Accept `atSeq: -1` (inherit nothing), which is otherwise `INVALID_CUT`. */
  allowEmptyCut?: boolean;
};

/** What `inspect` reports about a stored session, without writing anything. */
export type SessionInspection = {
  header: SessionHeader;
  events: readonly SessionEvent[];
  /** True when `open` would repair: an open turn to close, or a torn final line to drop. */
  needsRepair: boolean;
  /** The format version the log is stored in (it is read as V4 either way). */
  formatVersion: FormatVersion;
  /** A torn final line, if the log has one. */
  tornTail?: { offset: number; line: number };
};

/** A durable store of sessions (SPEC §11): one writer per session, exact forks, crash repair on open. */
export interface SessionStore {
  /** Creates and persists a new session (with its title and config) and returns it open for writing. */
  create(options?: CreateSessionOptions): Promise<Session>;
  /** Resumes a stored session under its single-writer lease, closing an interrupted turn (§6). */
  open(id: string): Promise<Session>;
  /** Reads a stored session and whether it needs repair; never writes. */
  inspect(id: string): Promise<SessionInspection>;
  /** Forks `sourceId` at exactly `atSeq`; the child is persisted atomically before it is returned. */
  fork(sourceId: string, options: ForkSessionOptions): Promise<Session>;
  /** Every stored session with its lineage, most recently updated first. */
  list(): Promise<SessionSummary[]>;
  /** True when a session with this id exists (live here or stored); false for an invalid id. */
  has(id: string): Promise<boolean>;
  /** Deletes a stored session that nobody holds open. */
  delete(id: string): Promise<void>;
  /** Closes every session this store holds open, then the backend. */
  close(): Promise<void>;
}

/** Options of `createSessionStore`. */
export type SessionStoreOptions = { backend: SessionBackend; now?: () => number };

/** Every failure leaves the store as a `SessionError`; unexpected storage errors become `STORAGE_ERROR`. */
async function guard<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (SessionError.is(error)) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new SessionError('STORAGE_ERROR', `The session storage failed: ${message}`, { cause: error });
  }
}

type Summary = { stamp: string; summary: Omit<SessionSummary, 'busy'> };

function sourceEvents(from: ForkSource): readonly SessionEvent[] {
  return Array.isArray(from) ? from : (from as { readonly events: readonly SessionEvent[] }).events;
}

/** The JSONL lines of the first `count` events of a V4 log's text (after its header line); undefined if it has fewer. */
function inheritedLines(text: string, count: number): InheritedRecords | undefined {
  const start = text.indexOf('\n') + 1;
  if (start === 0) return undefined;
  let end = start;
  for (let line = 0; line < count; line++) {
    const newline = text.indexOf('\n', end);
    if (newline === -1) return undefined;
    end = newline + 1;
  }
  return { kind: 'jsonl', count, text: text.slice(start, end) };
}

function standalone(seq: number, time: number, type: string, data: JsonValue): SessionEvent {
  return { seq, type, time, data };
}

function configData(config: SessionConfig): JsonValue {
  const data: { [key: string]: JsonValue } = {};
  if (config.tools !== undefined) data.tools = [...config.tools];
  if (config.cwd !== undefined) data.cwd = config.cwd;
  if (config.model !== undefined) data.model = config.model;
  return data;
}

/** A `SessionStore` over any `SessionBackend`. */
export function createSessionStore(options: SessionStoreOptions): SessionStore {
  const { backend } = options;
  const now = options.now ?? Date.now;
  const live = new Map<string, Session>();
  // Ids reserved by a create or fork in flight, so two of them in this store cannot race.
  const reserved = new Set<string>();
  const summaries = new Map<string, Summary>();
  let closed = false;

  const assertOpen = (): void => {
    if (closed) throw new SessionError('STORE_CLOSED', 'This session store is closed.');
  };
  const openedAt = new Map<string, number>();
  const thisProcessBusy = (id: string): SessionError =>
    busyError(id, { pid: process.pid, host: hostname(), since: openedAt.get(id) ?? now() });

  const forget = (id: string, session: () => Session | undefined) => () => {
    if (live.get(id) === session()) live.delete(id);
  };

  const reserve = async (id: string): Promise<void> => {
    if (live.has(id) || reserved.has(id)) throw existsError(id);
    reserved.add(id);
    try {
      if (await backend.exists(id)) throw existsError(id);
    } catch (error) {
      reserved.delete(id);
      throw error;
    }
  };

  /** Persists a new Session through its creating sink, publishing it in `live` only once stored. */
  const persistNew = async (session: Session): Promise<Session> => {
    try {
      await session.flush();
    } catch (error) {
      reserved.delete(session.id);
      throw error;
    }
    reserved.delete(session.id);
    live.set(session.id, session);
    openedAt.set(session.id, now());
    return session;
  };

  const readDecoded = async (id: string): Promise<DecodedLog> => decodeStored(id, await backend.read(id));

  const store: SessionStore = {
    async create(createOptions = {}) {
      assertOpen();
      const id = createOptions.id ?? randomUUID();
      assertSessionId(id);
      await reserve(id);
      const time = now();
      const header: SessionHeader = {
        format: 'dsh-session',
        version: 4,
        id,
        createdAt: time,
        ...(createOptions.config?.cwd === undefined ? {} : { cwd: createOptions.config.cwd }),
        inheritedEventCount: 0,
      };
      const events: SessionEvent[] = [];
      if (createOptions.title !== undefined) events.push(standalone(events.length, time, 'session/title', { title: createOptions.title }));
      if (createOptions.config !== undefined) events.push(standalone(events.length, time, 'session/config', configData(createOptions.config)));
      let session: Session | undefined;
      try {
        session = new Session({ header, seed: { kind: 'new', events }, durableCount: 0, sink: creatingSink(backend, id, header, forget(id, () => session)), now });
      } catch (error) {
        reserved.delete(id);
        throw error;
      }
      return persistNew(session);
    },

    async open(id) {
      assertOpen();
      assertSessionId(id);
      if (live.has(id) || reserved.has(id)) throw thisProcessBusy(id);
      reserved.add(id);
      let writer: SessionWriter | undefined;
      let session: Session | undefined;
      try {
        writer = await backend.acquire(id);
        const read = await writer.read();
        const decoded = decodeStored(id, read);
        const transition = decoded.sourceVersion !== 4;
        if (decoded.tornTail !== undefined && !transition) await writer.discardTornTail(decoded.tornTail.line);
        const closers = closeOpenTail(decoded.events, 'interrupted');
        const stored = decoded.events.length;
        const acquired = writer;
        const seed = decoded.events.concat(closers);
        // A log the codec decoded was validated event by event: the Session only advances past it.
        if (read.kind === 'jsonl') trustSeedPrefix(seed, stored);
        session = new Session({
          header: decoded.header,
          seed: { kind: 'restored', events: seed, storedLength: stored },
          durableCount: stored,
          sink: resumingSink(acquired, decoded.header, transition, forget(id, () => session)),
          now,
        });
        // Repair closers and the new marker are durable before the session is handed out.
        await session.flush();
      } catch (error) {
        reserved.delete(id);
        await writer?.release();
        throw error;
      }
      reserved.delete(id);
      live.set(id, session);
      openedAt.set(id, now());
      summaries.delete(id);
      return session;
    },

    async inspect(id) {
      assertOpen();
      assertSessionId(id);
      const decoded = await readDecoded(id);
      for (const event of decoded.events) deepFreeze(event);
      const needsRepair = decoded.tornTail !== undefined || closeOpenTail(decoded.events, 'interrupted').length > 0;
      return {
        header: decoded.header,
        events: decoded.events,
        needsRepair,
        formatVersion: decoded.sourceVersion,
        ...(decoded.tornTail === undefined ? {} : { tornTail: decoded.tornTail }),
      };
    },

    async fork(sourceId, forkOptions) {
      assertOpen();
      const childId = forkOptions.id ?? randomUUID();
      assertSessionId(childId);
      // Child identity first: nothing else is looked at when the id is taken.
      await reserve(childId);
      let session: Session | undefined;
      try {
        assertSessionId(sourceId);
        const liveSource = live.get(sourceId);
        let sourceHeader: SessionHeader;
        let events: readonly SessionEvent[];
        // How the child's prefix may be trusted and copied: only events this process validated.
        let source: { trusted: boolean; inherited: (count: number) => InheritedRecords | undefined } = { trusted: false, inherited: () => undefined };
        if (liveSource !== undefined) {
          sourceHeader = liveSource.header;
          if (forkOptions.from === undefined) {
            events = liveSource.events;
            source = { trusted: true, inherited: (count) => ({ kind: 'stored', sourceId, count }) };
          } else events = sourceEvents(forkOptions.from);
        } else {
          const stored = await backend.read(sourceId);
          const decoded = decodeStored(sourceId, stored);
          sourceHeader = decoded.header;
          if (forkOptions.from === undefined) {
            events = decoded.events;
            // The codec validated every stored event; a V4 log's lines can be copied as they were read.
            if (stored.kind === 'jsonl') {
              const text = decoded.sourceVersion === 4 ? stored.text : undefined;
              source = { trusted: true, inherited: (count) => (text === undefined ? undefined : inheritedLines(text, count)) };
            }
          } else events = sourceEvents(forkOptions.from);
        }
        const cut = forkOptions.atSeq;
        const minimum = forkOptions.allowEmptyCut === true ? -1 : 0;
        if (typeof cut !== 'number' || !Number.isInteger(cut) || cut < minimum || cut >= events.length) {
          const last = events.length === 0 ? 'the source has no events' : `the source's last seq is ${events.length - 1}`;
          throw new SessionError(
            'INVALID_CUT',
            `Cannot fork ${sourceId} at ${String(cut)}: expected an existing integer event seq (${last}); nothing was created.`,
            { sessionId: sourceId },
          );
        }
        const time = now();
        // The same composition as buildForkSeed (dsh-session/fork), which the main entry never imports.
        // The prefix events are shared with the source, never copied one by one.
        const seed = events.slice(0, cut + 1);
        const marker: SessionEvent = {
          seq: cut + 1,
          type: 'session/end-seed',
          time: cut === -1 ? time : (events[cut] as SessionEvent).time,
          data: { inherited: true },
        };
        seed.push(marker);
        for (const closer of closeOpenTail(seed, 'forked')) seed.push(closer);
        if (source.trusted) trustSeedPrefix(seed, cut + 1);
        const cwd = forkOptions.config?.cwd ?? sourceHeader.cwd;
        const header: SessionHeader = {
          format: 'dsh-session',
          version: 4,
          id: childId,
          createdAt: time,
          ...(cwd === undefined ? {} : { cwd }),
          parentSession: sourceId,
          forkCut: cut,
          inheritedEventCount: cut + 1,
        };
        const inherited = source.inherited(cut + 1);
        session = new Session({
          header,
          seed: { kind: 'fork', events: seed, cut },
          durableCount: 0,
          sink: creatingSink(backend, childId, header, forget(childId, () => session), inherited),
          now,
        });
        if (forkOptions.title !== undefined) session.append('session/title', { title: forkOptions.title });
        if (forkOptions.config !== undefined) session.append('session/config', configData(forkOptions.config));
      } catch (error) {
        reserved.delete(childId);
        throw error;
      }
      return persistNew(session);
    },

    async list() {
      assertOpen();
      const refs = await backend.list();
      const result: SessionSummary[] = [];
      for (const ref of refs) {
        let cached = summaries.get(ref.id);
        if (cached?.stamp !== ref.stamp) {
          cached = { stamp: ref.stamp, summary: await summaryOf(ref.id) };
          summaries.set(ref.id, cached);
        }
        const session = live.get(ref.id);
        const fresh = session === undefined ? cached.summary : { ...cached.summary, ...summarize(session.header, session.events, cached.summary.formatVersion, false) };
        const busy = session !== undefined || (await backend.holder(ref.id)) !== undefined;
        result.push({ ...fresh, busy });
      }
      const known = new Set(refs.map((ref) => ref.id));
      for (const id of summaries.keys()) if (!known.has(id)) summaries.delete(id);
      return result.sort((a, b) => b.updatedAt - a.updatedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    },

    async has(id) {
      if (!isValidSessionId(id)) return false;
      if (live.has(id)) return true;
      return backend.exists(id);
    },

    async delete(id) {
      assertOpen();
      assertSessionId(id);
      if (live.has(id) || reserved.has(id)) {
        const holder = { pid: process.pid, host: hostname(), since: openedAt.get(id) ?? now() };
        throw new SessionError('SESSION_BUSY', `${busyError(id, holder).message} Close it before deleting it.`, { sessionId: id, holder });
      }
      await backend.delete(id);
      summaries.delete(id);
    },

    async close() {
      if (closed) return;
      closed = true;
      const results = await Promise.allSettled([...live.values()].map((session) => session.close()));
      await backend.close();
      const failure = results.find((result) => result.status === 'rejected');
      if (failure !== undefined) throw failure.reason;
    },
  };

  return {
    create: (createOptions) => guard(() => store.create(createOptions)),
    open: (id) => guard(() => store.open(id)),
    inspect: (id) => guard(() => store.inspect(id)),
    fork: (sourceId, forkOptions) => guard(() => store.fork(sourceId, forkOptions)),
    list: () => guard(() => store.list()),
    has: (id) => guard(() => store.has(id)),
    delete: (id) => guard(() => store.delete(id)),
    close: () => guard(() => store.close()),
  };

  async function summaryOf(id: string): Promise<Omit<SessionSummary, 'busy'>> {
    try {
      const decoded = await readDecoded(id);
      const needsRepair = decoded.tornTail !== undefined || closeOpenTail(decoded.events, 'interrupted').length > 0;
      return summarize(decoded.header, decoded.events, decoded.sourceVersion, needsRepair);
    } catch (error) {
      if (!SessionError.is(error) || error.code === 'SESSION_NOT_FOUND') throw error;
      return {
        id,
        inheritedEventCount: 0,
        createdAt: 0,
        updatedAt: 0,
        lastSeq: -1,
        formatVersion: 4,
        needsRepair: false,
        problem: { code: error.code, message: error.message },
      };
    }
  }
}

