/**
 * The V6 fast path for core payloads: V5's for every type but `session/note`, checked here by hand
 * down to its canonical text. Like V5's, it never accepts what the zod schemas reject (a property
 * test pins this); `false` means "ask the zod schema". Expects lossless JSON.
 */
import { isObject, keysWithin } from '../shared/payload-guards.js';
import type { CoreEventType, SessionNoteData } from '../types.js';
import { isValidCorePayload as isValidV5CorePayload } from '../v5/is-valid-core-payload.js';
import { canonicalNoteText } from './workspace-texts.js';

// Spelled as object keys: `frozen-folders.test.ts` reads a quoted string after the word from as an import.
const STALE_KEYS: ReadonlySet<string> = new Set(Object.keys({ kind: 0, text: 0, paths: 0, more: 0 }));
const MOVED_KEYS: ReadonlySet<string> = new Set(Object.keys({ kind: 0, text: 0, from: 0, to: 0 }));

function isNotePayload(data: unknown): boolean {
  if (!isObject(data) || typeof data.text !== 'string') return false;
  if (data.kind === 'workspace-stale') {
    if (!keysWithin(data, STALE_KEYS) || !Array.isArray(data.paths)) return false;
  } else if (data.kind === 'workspace-moved') {
    if (!keysWithin(data, MOVED_KEYS)) return false;
  } else return false;
  // canonicalNoteText checks the paths, the count and the directories before it builds a text.
  return data.text === canonicalNoteText(data as SessionNoteData);
}

/** `true` only if `data` is a valid V6 payload for core `type`; `false` means "ask the zod schema". */
export function isValidCorePayload(type: CoreEventType, data: unknown): boolean {
  return type === 'session/note' ? isNotePayload(data) : isValidV5CorePayload(type, data);
}
