/**
 * @module fork-claude-session
 * `forkClaudeSession(claudeStore, key, { at, sessionId? })` (SPEC §19): a new transcript under the
 * same projectKey holding the parent's chain to the entry `at`, then dsh's forked closers for the
 * calls open there; stored atomically as its own dsh session, recording its parent (`claude/fork`).
 * The parent is unchanged; an unknown `at` is `INVALID_CUT` and creates nothing.
 */
import { randomUUID } from 'node:crypto';
import { CURRENT_FORMAT_VERSION, type SessionHeader } from 'dsh-codec';
import { SessionError } from 'dsh-session';
import { contextOf } from './claude-store-context.js';
import { ClaudeStoreError } from './claude-store-error.js';
import type { ClaudeSessionStore } from './claude-types.js';
import { forkEntries } from './fork-entries.js';
import { newMirrorEvents } from './mirror-log.js';
import { readEntries } from './read-transcripts.js';
import { checkSessionKey, dshSessionIdOf } from './session-key.js';
import { fallbackTitle, nextTitle } from './transcript-title.js';

/** Options of `forkClaudeSession`. */
export type ForkClaudeSessionOptions = {
  /** The uuid of the entry of the parent's main transcript to cut at (kept, with its chain). */
  at: string;
  /** The child's session id (default: a new UUID); `SESSION_EXISTS` when that key is written. */
  sessionId?: string;
};

/** The child transcript: resume it with `query({ prompt, options: { resume: sessionId, sessionStore } })`. */
export type ClaudeFork = { sessionId: string; inheritedEntryCount: number };

/** Forks the main transcript `key` at the entry `at` into a new session of the same project. */
export async function forkClaudeSession(
  claudeStore: ClaudeSessionStore,
  key: { projectKey: string; sessionId: string },
  options: ForkClaudeSessionOptions,
): Promise<ClaudeFork> {
  const context = contextOf(claudeStore);
  const parentKey = checkSessionKey({ projectKey: key.projectKey, sessionId: key.sessionId });
  if (typeof options.at !== 'string' || options.at === '') {
    throw new ClaudeStoreError(
      'INVALID_CUT',
      `Cannot fork: expected \`at\` to be an entry uuid, received ${typeof options.at === 'string' ? '""' : typeof options.at}; nothing was created.`,
    );
  }
  const childKey = checkSessionKey({ projectKey: parentKey.projectKey, sessionId: options.sessionId ?? randomUUID() });
  const parentId = dshSessionIdOf(parentKey);
  const entries = await readEntries(context, parentId, parentKey);
  if (entries === null)
    throw new ClaudeStoreError(
      'SESSION_NOT_FOUND',
      `Cannot fork ${JSON.stringify(parentKey)}: expected a transcript that was written, found none; nothing was created.`,
    );
  const time = Date.now();
  const fork = forkEntries(entries, { at: options.at, sessionId: childKey.sessionId, now: time });
  const childId = dshSessionIdOf(childKey);
  const header: SessionHeader = {
    format: 'dsh-session',
    version: CURRENT_FORMAT_VERSION,
    id: childId,
    createdAt: time,
    inheritedEventCount: 0,
  };
  const record = { parent: parentKey, parentSession: parentId, at: options.at, inheritedEntryCount: fork.inheritedEntryCount };
  const title = `${nextTitle(undefined, fork.entries)?.title ?? fallbackTitle(parentKey)} (fork)`;
  try {
    await context.store.import({ header, events: newMirrorEvents(childKey, fork.entries, time, title, record) });
  } catch (error) {
    if (SessionError.is(error) && error.code === 'SESSION_EXISTS') {
      throw new ClaudeStoreError(
        'SESSION_EXISTS',
        `Cannot fork into session ${JSON.stringify(childKey.sessionId)}: expected a session id not yet written in project ${JSON.stringify(childKey.projectKey)}; nothing was created.`,
        { cause: error },
      );
    }
    throw error;
  }
  context.keys.set(childId, childKey);
  return { sessionId: childKey.sessionId, inheritedEntryCount: fork.inheritedEntryCount };
}
