/** `SessionStore.import`: a complete log (e.g. from dsh-import) stored atomically as a new session. */
import { CURRENT_FORMAT_VERSION, validate, type SessionEvent, type SessionHeader } from 'dsh-codec';
import { SessionError } from './session-error.js';
import { assertSessionId, isValidSessionId } from './session-id.js';
import { assertStoreOpen, reserveNewId, type StoreContext } from './store-context.js';

/** A header and its events, as `SessionStore.import` takes them. */
export type ImportedArtifact = { header: SessionHeader; events: readonly SessionEvent[] };

/**
 * Validates `artifact` as a current-format log (`INVALID_EVENT`), checks a fork child's parent is here
 * (`SESSION_NOT_FOUND`), then creates it atomically (`SESSION_EXISTS` for a taken id) without opening it.
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
    throw new SessionError('SESSION_NOT_FOUND', `Cannot import fork child ${header.id}: its parent ${parent} is not in this store; import the parent first.`, {
      sessionId: parent,
    });
  }
  await reserveNewId(context, header.id);
  try {
    const writer = await context.backend.create(header.id, header, events);
    await writer.release();
  } finally {
    context.reserved.delete(header.id);
  }
}
