/**
 * The composer's slash commands. Anything that does not start with `/` is a message; a message
 * that must start with a slash is written with two (`//etc` sends `/etc`).
 */

/** What one composer submission asks for. */
export type ComposerInput =
  | { kind: 'message'; text: string }
  | { kind: 'branch'; name?: string }
  | { kind: 'rename'; name: string }
  | { kind: 'resume'; ref: string }
  | { kind: 'compact' }
  | { kind: 'help' }
  | { kind: 'invalid'; message: string };

/** Usage lines shown by `/help` and after a malformed command. */
export const COMMAND_HELP = [
  '/branch [name] — fork at the latest closed turn and switch to the branch',
  '/rename NAME — set this session’s title',
  '/resume NAME|ID — open another session by title or id',
  '/compact — summarise the history so far (between turns)',
];

/** Parses one composer submission; never throws. */
export function parseCommand(raw: string): ComposerInput {
  const text = raw.trim();
  if (text.startsWith('//')) return { kind: 'message', text: text.slice(1) };
  if (!text.startsWith('/')) return { kind: 'message', text };
  const match = /^\/(\S+)\s*(.*)$/s.exec(text);
  const name = match?.[1] ?? '';
  const rest = (match?.[2] ?? '').trim();
  switch (name) {
    case 'branch':
      return rest === '' ? { kind: 'branch' } : { kind: 'branch', name: rest };
    case 'rename':
      return rest === '' ? { kind: 'invalid', message: 'Usage: /rename NAME' } : { kind: 'rename', name: rest };
    case 'resume':
      return rest === '' ? { kind: 'invalid', message: 'Usage: /resume NAME|ID' } : { kind: 'resume', ref: rest };
    case 'compact':
      return rest === '' ? { kind: 'compact' } : { kind: 'invalid', message: 'Usage: /compact (no arguments)' };
    case 'help':
      return { kind: 'help' };
    default:
      return { kind: 'invalid', message: `Unknown command /${name}. Commands: /branch, /rename, /resume, /compact, /help` };
  }
}

/**
 * Resolves `/resume NAME|ID` against the session list: an exact id wins, then an exact title.
 * Several sessions with that title is ambiguous, and the error lists their ids.
 */
export function resolveSessionRef(
  sessions: readonly { id: string; title?: string }[],
  ref: string,
): { id: string } | { error: string } {
  const byId = sessions.find((session) => session.id === ref);
  if (byId) return { id: byId.id };
  const byTitle = sessions.filter((session) => session.title === ref);
  const [only] = byTitle;
  if (byTitle.length === 1 && only) return { id: only.id };
  if (byTitle.length > 1) {
    return { error: `NAME_AMBIGUOUS: “${ref}” names ${byTitle.length} sessions: ${byTitle.map((s) => s.id).join(', ')}. Resume by id.` };
  }
  return { error: `SESSION_NOT_FOUND: no session has the id or title “${ref}”.` };
}
