/**
 * @module `host.fork` (and `POST /api/sessions/:id/fork`): the source resolved once, one `store.fork`,
 * the child published; with an `Idempotency-Key`, the request joined or found again instead of repeated.
 */
import type { ForkRequest } from 'dsh-codec';
import { SessionError } from 'dsh-session';
import { forkRequestDigest } from './fork-request-digest.js';
import { HostError } from '../host-error.js';
import type { HostContext } from '../host-context.js';
import type { ForkOptions, ForkResult } from '../host-types.js';
import { resolveRef } from './list-sessions.js';
import { assertOpen } from './session-registry.js';
import { forkChild } from './fork-child.js';
import { forkInWorktree } from './fork-worktree.js';

/** Remembered idempotent fork requests; the oldest are forgotten beyond this many. */
const IDEMPOTENCY_CAPACITY = 10_000;

/**
 * One fork: the resolved source id goes to `store.fork`, which observes it once (from memory when
 * live), checks the cut once against that observation (or applies the omitted rule to it), builds the
 * seed once, applies the config at the cut (`config` replaces it, `configPatch` is merged over it)
 * and copies the validated prefix as bytes; a `PrintableTitle` (checked at the HTTP edge) is not
 * checked again. The child is published live once the store persisted its seed. With `worktree`, the
 * child's own directory is made first (`fork-worktree.ts`).
 * @internal
 */
export async function forkOnce(
  context: HostContext,
  sourceId: string,
  forkOptions: ForkOptions,
  forkRequest?: ForkRequest,
): Promise<ForkResult> {
  if (forkOptions.worktree === true) return forkInWorktree(context, sourceId, forkOptions, forkRequest);
  return forkChild(context, sourceId, sourceId, forkOptions, forkRequest);
}

function mismatch(key: string): HostError {
  return new HostError(
    'IDEMPOTENCY_MISMATCH',
    `Idempotency-Key '${key}' was first used for a different fork request: expected the same source and options, or a new key.`,
  );
}

/**
 * The child a previous host (or this one before a restart) created under `key`, from the stored
 * headers' `forkRequest`: through the store's index when it has one (`findForkChild`, PostgreSQL),
 * else through `store.list()` (whose summaries are cached per stored version).
 */
async function storedForkRequest(context: HostContext, key: string): Promise<{ digest: string; result: ForkResult } | undefined> {
  const { store } = context;
  if (store.findForkChild !== undefined) {
    const header = await store.findForkChild(key);
    if (header?.forkRequest === undefined || header.parentSession === undefined) return undefined;
    const forkCut = header.forkCut ?? -1;
    return {
      digest: header.forkRequest.digest,
      result: { sessionId: header.id, parentSession: header.parentSession, forkCut, inheritedEventCount: header.inheritedEventCount },
    };
  }
  for (const summary of await store.list()) {
    if (summary.forkRequest?.key !== key || summary.parentSession === undefined) continue;
    const forkCut = summary.forkCut ?? -1;
    return {
      digest: summary.forkRequest.digest,
      result: { sessionId: summary.id, parentSession: summary.parentSession, forkCut, inheritedEventCount: summary.inheritedEventCount },
    };
  }
  return undefined;
}

/** An idempotent request: the stored child when the key was used (same digest), else one new fork storing key and digest. */
async function forkUnderKey(
  context: HostContext,
  sourceRef: string,
  request: ForkOptions,
  key: string,
  digest: string,
): Promise<ForkResult> {
  const stored = await storedForkRequest(context, key);
  if (stored !== undefined) {
    if (stored.digest !== digest) throw mismatch(key);
    return stored.result;
  }
  const sourceId = await resolveRef(context, sourceRef);
  try {
    return await forkOnce(context, sourceId, request, { key, digest });
  } catch (error) {
    // Another host forked under this key meanwhile and a store that keeps keys unique (PostgreSQL)
    // refused a second child: answer as if that child had been found first.
    const raced = SessionError.is(error) && error.code === 'SESSION_EXISTS' ? await storedForkRequest(context, key) : undefined;
    if (raced === undefined) throw error;
    if (raced.digest !== digest) throw mismatch(key);
    return raced.result;
  }
}

/**
 * `host.fork`: resolves the source and forks once. With an `idempotencyKey` the key and a digest of
 * the request are stored in the child's header (V5 `forkRequest`), so the same request — now, from a
 * concurrent caller, or after a restart — returns the first child, and a different request under the
 * key is `IDEMPOTENCY_MISMATCH`. A failed request stores nothing and is forgotten.
 */
export async function forkRequest(context: HostContext, sourceRef: string, forkOptions: ForkOptions = {}): Promise<ForkResult> {
  const { idempotent } = context;
  assertOpen(context);
  const { idempotencyKey, ...request } = forkOptions;
  if (idempotencyKey === undefined) return forkOnce(context, await resolveRef(context, sourceRef), request);
  const digest = forkRequestDigest(sourceRef, request);
  // Requests in flight (or recent) on this host join here, so concurrent retries create one child.
  const remembered = idempotent.get(idempotencyKey);
  if (remembered !== undefined) {
    if (remembered.fingerprint !== digest) throw mismatch(idempotencyKey);
    return remembered.result;
  }
  const result = forkUnderKey(context, sourceRef, request, idempotencyKey, digest);
  idempotent.set(idempotencyKey, { fingerprint: digest, result });
  if (idempotent.size > IDEMPOTENCY_CAPACITY) idempotent.delete(idempotent.keys().next().value as string);
  // A failed request is not remembered: retrying it with the same key may succeed.
  result.catch(() => idempotent.delete(idempotencyKey));
  return result;
}
