/**
 * @module `SessionStore.fork`: one observation, one cut check, one seed, the inherited prefix copied as
 * bytes. The title is checked here only when the caller did not (a string, not a `PrintableTitle`); a
 * generated child id is not looked up in the backend: the atomic create refuses a taken one.
 */
import { randomUUID } from 'node:crypto';
import { CURRENT_FORMAT_VERSION, type ForkRequest, type SessionConfig, type SessionHeader } from 'dsh-codec';
import { forkSeedTail } from '../build-fork-seed.js';
import { titleText, type PrintableTitle } from './check-title.js';
import { LATEST_CLOSED_TURN, selectCut } from './fork-cut.js';
import { observeSession } from './observe-session.js';
import { SessionError } from '../session-error.js';
import { assertSessionId } from '../session-id.js';
import { provenanceOf, type ObservationProvenance, type SessionObservation } from './session-observation.js';
import type { Session } from '../session/session.js';
import type { EventSource } from '../sources/event-source.js';
import { configData } from './config-data.js';
import { assertStoreOpen, persistNew, reserveNewId, type StoreContext } from './store-context.js';

/** Options of `SessionStore.fork`. */
export type ForkSessionOptions = {
  /**
   * The exact seq the child inherits through (inclusive; `-0` is 0), or `'latest-closed-turn'`: the
   * latest closed turn plus its independent tail (SPEC §5.4's omitted rule), which may inherit nothing.
   */
  atSeq: number | typeof LATEST_CLOSED_TURN;
  id?: string;
  /** The child's title: a string is checked here (`INVALID_TITLE`), a `PrintableTitle` was checked where it entered. */
  title?: string | PrintableTitle;
  /** The child's config, whole: it replaces the config in force at the cut. */
  config?: SessionConfig;
  /**
   * Merged over the config in force at the cut (the latest `session/config` at or before it, read
   * from the source without decoding its prefix), e.g. only a new `cwd`; ignored with `config`.
   */
  configPatch?: SessionConfig;
  /**
   * Stored in the child's header (format V5 `forkRequest`): the idempotency key the fork was asked
   * under and a digest of the request, so a caller can find this child again after a restart.
   */
  forkRequest?: ForkRequest;
};

/** 1–255 visible ASCII characters: what an HTTP `Idempotency-Key` and a hex digest both are. */
const FORK_REQUEST_TEXT = /^[\x21-\x7e]{1,255}$/;

function checkForkRequest(request: ForkRequest): void {
  for (const field of ['key', 'digest'] as const) {
    const value: unknown = request[field];
    if (typeof value === 'string' && FORK_REQUEST_TEXT.test(value)) continue;
    throw new SessionError(
      'INVALID_FORK_REQUEST',
      `Invalid forkRequest.${field}: expected 1-255 visible ASCII characters, received ${typeof value === 'string' ? JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value) : typeof value}.`,
    );
  }
}

function foreignObservation(): SessionError {
  return new SessionError(
    'INVALID_OBSERVATION',
    'Cannot fork from this value: expected a session id or an observation returned by this store’s observe(), received an object this store did not produce.',
  );
}

/** An id observed once (from memory when live: nothing copied), or an observation this store produced (`INVALID_OBSERVATION` otherwise). */
async function observedSource(
  context: StoreContext,
  source: string | SessionObservation,
): Promise<{ observation: SessionObservation; provenance: ObservationProvenance }> {
  const observation = typeof source === 'string' ? await observeSession(context, source) : source;
  const provenance = provenanceOf(observation, context.origin);
  if (provenance === undefined) throw foreignObservation();
  return { observation, provenance };
}

/** The config in force at `cut`: the latest `session/config` at or before it (latest wins whole), or `{}`; only that event is read. */
function configAtCut(source: EventSource, cut: number): SessionConfig {
  const at = source.findLast(CONFIG, cut + 1);
  return at === -1 ? {} : (source.at(at).data as SessionConfig);
}

const CONFIG = ['session/config'];

/**
 * @internal Forks `source` (an id, or an observation this store produced — then nothing is read or decoded
 * again). Child identity is checked first, then the source, then the cut; the child's whole seed is
 * durable before it is returned; every failure releases what it took.
 */
export async function forkSession(
  context: StoreContext,
  source: string | SessionObservation,
  options: ForkSessionOptions,
): Promise<Session> {
  assertStoreOpen(context);
  const childId = options.id ?? randomUUID();
  assertSessionId(childId);
  const title = options.title === undefined ? undefined : titleText(options.title);
  if (options.forkRequest !== undefined) checkForkRequest(options.forkRequest);
  // Child identity first: nothing else is looked at when a named id is taken (a generated one is
  // left to the atomic create, which refuses a taken id with the same SESSION_EXISTS).
  await reserveNewId(context, childId, options.id === undefined ? 'generated' : 'named');
  try {
    // Read through the observation's source: the cut, the latest turn, nothing else (a stored log's
    // lines are decoded only if the child's events are read later).
    const { observation, provenance } = await observedSource(context, source);
    const sourceId = observation.sessionId;
    const cut = selectCut(provenance.source, options.atSeq, sourceId);
    const time = context.now();
    const own = forkSeedTail(provenance.source, cut, time);
    const config =
      options.config ??
      (options.configPatch === undefined ? undefined : { ...configAtCut(provenance.source, cut), ...options.configPatch });
    const cwd = config?.cwd ?? observation.header.cwd;
    const header: SessionHeader = {
      format: 'dsh-session',
      version: CURRENT_FORMAT_VERSION,
      id: childId,
      createdAt: time,
      ...(cwd === undefined ? {} : { cwd }),
      parentSession: sourceId,
      forkCut: cut,
      inheritedEventCount: cut + 1,
      ...(options.forkRequest === undefined ? {} : { forkRequest: { key: options.forkRequest.key, digest: options.forkRequest.digest } }),
    };
    const appends = [
      ...(title === undefined ? [] : [{ type: 'session/title', data: { title } }]),
      ...(config === undefined ? [] : [{ type: 'session/config', data: configData(config) }]),
    ];
    return await persistNew(
      context,
      {
        header,
        seed: { kind: 'fork-of', inherited: provenance.source, cut, events: own },
        appends,
        validatedCount: Math.min(provenance.validated, cut + 1),
        formatVersion: CURRENT_FORMAT_VERSION,
      },
      cut >= 0 ? provenance.copy(cut + 1) : undefined,
    );
  } catch (error) {
    context.reserved.delete(childId);
    throw error;
  }
}
