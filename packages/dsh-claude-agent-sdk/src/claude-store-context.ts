/**
 * @module claude-store-context
 * What the operations of a Claude session store share: the dsh store, the hold and wait settings,
 * the sessions this process holds open, a queue per dsh session (one operation at a time per key
 * inside this process), and the keys already read from stored sessions.
 */
import type { Session, SessionStore } from 'dsh-session';
import { ClaudeStoreError } from './claude-store-error.js';
import type { FoldSessionSummary, SessionKey } from './claude-types.js';

/** One session this process holds under its lease, with what appends need to know about it. */
export type HeldSession = {
  session: Session;
  key: SessionKey;
  /** Every stored or pending entry uuid: the idempotency index. */
  uuids: Set<string>;
  /** The current title and how strong it is (prompt 0, AI title/summary 1, custom title 2). */
  title: { title: string; rank: number } | undefined;
  /** When the hold began (epoch ms), for `maxHoldMs`. */
  since: number;
  timer: ReturnType<typeof setTimeout> | undefined;
};

/** Shared state of one `createClaudeSessionStore` result. */
export type ClaudeStoreContext = {
  store: SessionStore;
  holdMs: number;
  maxHoldMs: number;
  busyTimeoutMs: number;
  /** The SDK's summary fold: given, found in an installed SDK, or null when neither. */
  fold: FoldSessionSummary | null | undefined;
  held: Map<string, HeldSession>;
  /**
   * The latest sessions this process released cleanly, with what their appends knew (at most
   * `RELEASED_KEPT`, oldest dropped first): the next hold of such a key reopens from it
   * (`store.reopen`) and reads only what was added since, not the whole transcript again.
   */
  released: Map<string, HeldSession>;
  queues: Map<string, Promise<unknown>>;
  /** dsh session id → the key it records (keys never change, so this never goes stale). */
  keys: Map<string, SessionKey>;
  closed: boolean;
};

/** How many released sessions a store keeps for a cheap reopen (each holds its transcript in memory). */
export const RELEASED_KEPT = 16;

/** Throws `STORE_CLOSED` after `close()`. */
export function assertOpen(context: ClaudeStoreContext): void {
  if (context.closed)
    throw new ClaudeStoreError('STORE_CLOSED', 'This Claude session store is closed: expected calls before close(), received one after.');
}

/** Runs `operation` after every earlier operation on dsh session `id` in this store has settled. */
export function serialized<T>(context: ClaudeStoreContext, id: string, operation: () => Promise<T>): Promise<T> {
  const previous = context.queues.get(id) ?? Promise.resolve();
  const next = previous.then(operation, operation);
  const tail = next.then(
    () => undefined,
    () => undefined,
  );
  context.queues.set(id, tail);
  void tail.then(() => {
    if (context.queues.get(id) === tail) context.queues.delete(id);
  });
  return next;
}

/** Where a store made by `createClaudeSessionStore` keeps its context (module-private key). */
export const CONTEXT: unique symbol = Symbol('dsh-claude-agent-sdk.context');

/** The context of a store `createClaudeSessionStore` made; `INVALID_STORE` for any other object. */
export function contextOf(claudeStore: unknown): ClaudeStoreContext {
  const context =
    typeof claudeStore === 'object' && claudeStore !== null ? (claudeStore as { [CONTEXT]?: ClaudeStoreContext })[CONTEXT] : undefined;
  if (context === undefined) {
    throw new ClaudeStoreError(
      'INVALID_STORE',
      'Expected a store made by createClaudeSessionStore (it knows the dsh store underneath), received another object.',
    );
  }
  assertOpen(context);
  return context;
}
