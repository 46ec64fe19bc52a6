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
