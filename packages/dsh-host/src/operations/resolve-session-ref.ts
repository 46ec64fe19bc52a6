/** @module `resolveSessionRef`: an id or a name to one session id (`SESSION_NOT_FOUND`, `NAME_AMBIGUOUS`), a name set by a session preferred over forks that inherited it. */
import { HostError } from '../host-error.js';

/** What name resolution needs of a session: its id, latest title, and whether that title was inherited. */
export type NamedEntry = {
  id: string;
  title?: string;
  /** True when the latest title came with a fork's inherited prefix rather than being set on this session. */
  titleInherited?: boolean;
};

/**
 * Resolves an id or a name to one session id. An exact id wins; otherwise the sessions whose latest
 * title equals `ref`, preferring the one that set it itself over forks that inherited it. None →
 * `SESSION_NOT_FOUND`; several (that set it themselves) → `NAME_AMBIGUOUS` listing the ids.
 */
export function resolveSessionRef(entries: readonly NamedEntry[], ref: string): string {
  if (entries.some((entry) => entry.id === ref)) return ref;
  const matches = entries.filter((entry) => entry.title === ref);
  const owned = matches.filter((entry) => entry.titleInherited !== true);
  const [only] = matches.length === 1 ? matches : owned;
  if (only !== undefined && (matches.length === 1 || owned.length === 1)) return only.id;
  if (matches.length > 1) {
    const ids = (owned.length > 1 ? owned : matches).map((entry) => entry.id);
    throw new HostError(
      'NAME_AMBIGUOUS',
      `The name '${ref}' matches ${ids.length} sessions: ${ids.join(', ')}; use one of these ids, or rename one of them.`,
      { details: { candidates: ids } },
    );
  }
  throw new HostError('SESSION_NOT_FOUND', `No session has the id or name '${ref}'.`);
}
