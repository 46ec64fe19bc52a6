/**
 * This package's structural copies of the SDK's session-store types against the pinned SDK's own
 * `.d.ts`: each pair must be identical, so an SDK release that changes them fails `pnpm typecheck`.
 */
import type {
  foldSessionSummary,
  Options,
  SessionKey as SdkSessionKey,
  SessionStore as SdkSessionStore,
  SessionStoreEntry as SdkSessionStoreEntry,
  SessionSummaryEntry as SdkSessionSummaryEntry,
} from '@anthropic-ai/claude-agent-sdk';
import { describe, expect, it } from 'vitest';
import { createMemoryStore } from 'dsh-session';
import {
  createClaudeSessionStore,
  type ClaudeSessionStore,
  type FoldSessionSummary,
  type SessionKey,
  type SessionStoreEntry,
  type SessionSummaryEntry,
} from 'dsh-claude-agent-sdk';

/** True only when A and B are the same type (not merely assignable one way). */
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the standard exact-equality probe
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const matches = <T extends true>(value: T): T => value;

/** The SDK's store with every optional method required: what this package promises to provide. */
type FullSdkStore = Required<SdkSessionStore>;
type Methods = Omit<ClaudeSessionStore, 'close'>;

export const typeChecks = [
  matches<Same<SessionKey, SdkSessionKey>>(true),
  matches<Same<SessionStoreEntry, SdkSessionStoreEntry>>(true),
  matches<Same<SessionSummaryEntry, SdkSessionSummaryEntry>>(true),
  matches<Same<FoldSessionSummary, typeof foldSessionSummary>>(true),
  // Every method of the SDK's SessionStore (optional ones included), with exactly its signature.
  matches<Same<keyof Methods, keyof FullSdkStore>>(true),
  matches<Same<Methods['append'], FullSdkStore['append']>>(true),
  matches<Same<Methods['load'], FullSdkStore['load']>>(true),
  matches<Same<Methods['listSessions'], FullSdkStore['listSessions']>>(true),
  matches<Same<Methods['listSessionSummaries'], FullSdkStore['listSessionSummaries']>>(true),
  matches<Same<Methods['delete'], FullSdkStore['delete']>>(true),
  matches<Same<Methods['listSubkeys'], FullSdkStore['listSubkeys']>>(true),
];

describe('the SDK types', () => {
  it("a ClaudeSessionStore is what query()'s sessionStore option takes", async () => {
    const store = createMemoryStore();
    const sessionStore: Options['sessionStore'] = createClaudeSessionStore({ store });
    expect(typeof sessionStore.listSubkeys).toBe('function');
    expect(typeChecks).not.toContain(false);
    await store.close();
  });
});
