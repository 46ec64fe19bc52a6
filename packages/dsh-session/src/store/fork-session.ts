/**
 * @module `SessionStore.fork`: the child's side — its id, title, header and config — over one fork point
 * of the source (`readForkPoint`: one observation, one cut check, the seed's own events), the inherited
 * prefix copied as bytes. The title is checked here only when the caller did not (a string, not a `PrintableTitle`); a
 * generated child id is not looked up in the backend: the atomic create refuses a taken one.
 */
import { randomUUID } from 'node:crypto';
import {
  CURRENT_FORMAT_VERSION,
  copyLosslessJson,
  type ForkRequest,
  type SessionConfig,
  type SessionHeader,
  type SessionNoteData,
} from 'dsh-codec';
import { titleText, type PrintableTitle } from './check-title.js';
import type { LATEST_CLOSED_TURN } from './fork-cut.js';
import { readForkPoint } from './fork-point.js';
import { SessionError } from '../session-error.js';
import { assertSessionId } from '../session-id.js';
import type { SessionObservation } from './session-observation.js';
import type { Session } from '../session/session.js';
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
  /**
   * `'at-cut'` when the child's files are exactly the workspace at the cut (a `--worktree` fork): each
   * forked closer adds dsh-codec's `FORKED_WORKSPACE_AT_CUT_SENTENCE` (format V6, SPEC §23).
   */
  workspace?: 'at-cut';
  /**
   * What the child is told of its files before its first model request (dsh-codec's `workspaceStaleNote`,
   * `workspaceMovedNote`): `session/note` events right after the closers, in the seed's one atomic create.
   * A note whose text is not the canonical text of its data is refused (`INVALID_EVENT`), nothing created.
   */
  notes?: readonly SessionNoteData[];
};

/** The caller's notes as fresh frozen copies (the seed keeps them); `INVALID_EVENT` for one that is not lossless JSON. */
function copyNotes(notes: readonly SessionNoteData[]): SessionNoteData[] {
  return notes.map((note, index) => {
    const copy = copyLosslessJson(note);
    if (copy === undefined) {
      throw new SessionError(
        'INVALID_EVENT',
        `Cannot fork with notes[${String(index)}]: expected lossless JSON session/note data, received a value that is not.`,
      );
    }
    return copy as SessionNoteData;
  });
}

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
  const notes = options.notes === undefined ? undefined : copyNotes(options.notes);
  // Child identity first: nothing else is looked at when a named id is taken (a generated one is
  // left to the atomic create, which refuses a taken id with the same SESSION_EXISTS).
  await reserveNewId(context, childId, options.id === undefined ? 'generated' : 'named');
  try {
    const point = await readForkPoint(context, source, options.atSeq, {
      ...(options.workspace === undefined ? {} : { workspace: options.workspace }),
      ...(notes === undefined ? {} : { notes }),
    });
    const { cut, time } = point;
    const sourceId = point.observation.sessionId;
    const config = options.config ?? (options.configPatch === undefined ? undefined : { ...point.configAtCut(), ...options.configPatch });
    const cwd = config?.cwd ?? point.observation.header.cwd;
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
        seed: { kind: 'fork-of', inherited: point.source, cut, events: point.own },
        appends,
        validatedCount: point.validated,
        formatVersion: CURRENT_FORMAT_VERSION,
      },
      point.inherited,
    );
  } catch (error) {
    context.reserved.delete(childId);
    throw error;
  }
}
