/**
 * @module transcript-title
 * A title for `dsh sessions` from a transcript's entries: the latest custom title, else AI title or
 * summary, else the first user prompt; printable (control characters become spaces) and short.
 */
import type { SessionKey, SessionStoreEntry } from './claude-types.js';

const CONTROL = /[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]+/gu;
const MAX_TITLE = 80;

function printable(text: string): string | undefined {
  const flat = text.replace(CONTROL, ' ').replace(/\s+/g, ' ').trim();
  if (flat === '') return undefined;
  return flat.length > MAX_TITLE ? `${flat.slice(0, MAX_TITLE - 1)}…` : flat;
}

function promptOf(entry: SessionStoreEntry): string | undefined {
  if (entry.type !== 'user' || entry.isMeta === true || entry.isSidechain === true) return undefined;
  const content = (entry.message as { content?: unknown } | undefined)?.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const text = (content as { type?: unknown; text?: unknown }[]).find((block) => block.type === 'text' && typeof block.text === 'string');
  return text?.text as string | undefined;
}

function namedTitle(entry: SessionStoreEntry): { title: string; rank: number } | undefined {
  const value =
    entry.type === 'custom-title'
      ? entry.customTitle
      : entry.type === 'ai-title'
        ? entry.aiTitle
        : entry.type === 'summary'
          ? entry.summary
          : undefined;
  if (typeof value !== 'string') return undefined;
  return { title: value, rank: entry.type === 'custom-title' ? 2 : 1 };
}

/** The best title after `entries` given the current one (`undefined`: none yet). */
export function nextTitle(
  current: { title: string; rank: number } | undefined,
  entries: readonly SessionStoreEntry[],
): { title: string; rank: number } | undefined {
  let best = current;
  for (const entry of entries) {
    const named = namedTitle(entry);
    const candidate = named ?? (best === undefined ? { title: promptOf(entry) ?? '', rank: 0 } : undefined);
    if (candidate === undefined) continue;
    const title = printable(candidate.title);
    if (title !== undefined && (best === undefined || candidate.rank >= best.rank)) best = { title, rank: candidate.rank };
  }
  return best;
}

/** The title of a transcript that has none of its own: which key it mirrors. */
export function fallbackTitle(key: SessionKey): string {
  const title = key.subpath === undefined ? `Claude session ${key.sessionId}` : `Claude ${key.subpath} of ${key.sessionId}`;
  return printable(title) ?? 'Claude session';
}
