/** `SessionStore.import`: a complete log (e.g. from dsh-import) stored atomically as a new session. */
import { isDeepStrictEqual } from 'node:util';
import { CURRENT_FORMAT_VERSION, validate, type SessionEvent, type SessionHeader } from 'dsh-codec';
import { observeSession } from './observe-session.js';
import { SessionError } from '../session-error.js';
import { assertSessionId, isValidSessionId } from '../session-id.js';
import { assertStoreOpen, reserveNewId, type StoreContext } from './store-context.js';

/** A header and its events, as `SessionStore.import` takes them. */
export type ImportedArtifact = { header: SessionHeader; events: readonly SessionEvent[] };

function describeEvent(event: SessionEvent | undefined): string {
  if (event === undefined) return 'nothing (the parent has no event there)';
  const shown = JSON.stringify(event);
  return shown.length > 160 ? `${shown.slice(0, 160)}…` : shown;
}

/**
 * Refuses (`INVALID_EVENT`, naming the first differing seq) a fork child whose first `forkCut + 1`
 * events are not exactly its parent's: what it claims to inherit must be what the parent holds.
 */
async function assertInheritsExactly(
  context: StoreContext,
  header: SessionHeader,
  events: readonly SessionEvent[],
  parent: string,
): Promise<void> {
  const count = header.inheritedEventCount;
  if (count === 0) return;
  const observed = await observeSession(context, parent);
  const inherited = observed.events;
  for (let seq = 0; seq < count; seq++) {
    if (isDeepStrictEqual(inherited[seq], events[seq])) continue;
    throw new SessionError(
      'INVALID_EVENT',
      `Cannot import fork child ${header.id}: its first ${count} events (through forkCut ${String(header.forkCut)}) must equal its parent ${parent}'s, ` +
        `but seq ${seq} differs — expected the parent's ${describeEvent(inherited[seq])}, received ${describeEvent(events[seq])}; nothing was stored.`,
      { sessionId: header.id },
    );
  }
}

/**
 * @internal Validates `artifact` as a current-format log (`INVALID_EVENT`), checks a fork child's parent is here
 * (`SESSION_NOT_FOUND`) and that its inherited events are exactly the parent's (`INVALID_EVENT`, naming
 * the first differing seq), then creates it atomically (`SESSION_EXISTS` for a taken id) without opening it.
 */
export async function importSession(context: StoreContext, artifact: ImportedArtifact): Promise<void> {
  assertStoreOpen(context);
  const { header, events } = artifact;
  assertSessionId(header.id);
  const issues = validate(CURRENT_FORMAT_VERSION, { header, events });
  const first = issues[0];
  if (first !== undefined) {
    throw new SessionError(
      'INVALID_EVENT',
      `Cannot import session ${header.id}: expected a valid current-format (V${CURRENT_FORMAT_VERSION}) log, found ${issues.length} problem(s); first: ${first.message}`,
      { sessionId: header.id },
    );
  }
  const parent = header.parentSession;
  if (parent !== undefined && !(isValidSessionId(parent) && (context.live.has(parent) || (await context.backend.exists(parent))))) {
    throw new SessionError(
      'SESSION_NOT_FOUND',
      `Cannot import fork child ${header.id}: its parent ${parent} is not in this store; import the parent first.`,
      {
        sessionId: parent,
      },
    );
  }
  if (parent !== undefined) await assertInheritsExactly(context, header, events, parent);
  await reserveNewId(context, header.id);
  try {
    const writer = await context.backend.create(header.id, header, events);
    await writer.release();
  } finally {
    context.reserved.delete(header.id);
  }
}
