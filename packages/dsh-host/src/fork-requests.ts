import type { SessionConfig, SessionEvent } from 'dsh-codec';
import { LATEST_CLOSED_TURN } from 'dsh-session';
import { HostError } from './host-error.js';
import type { HostContext } from './host-context.js';
import type { ForkOptions, ForkResult } from './host-types.js';
import { resolveRef } from './list-sessions.js';
import { assertOpen, publish } from './session-registry.js';
import { selectForkCut } from './select-fork-cut.js';

/** Remembered idempotent fork requests; the oldest are forgotten beyond this many. */
const IDEMPOTENCY_CAPACITY = 10_000;

/** The latest `session/config` in `events` (latest wins whole), or `{}`. */
function latestConfig(events: readonly SessionEvent[]): SessionConfig {
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index];
    if (event?.type === 'session/config') return event.data as SessionConfig;
  }
  return {};
}

/**
 * One observation, handed as is to `store.fork`: the store checks the cut once against it (or
 * applies the omitted rule to it), builds the seed once and copies the validated prefix as bytes;
 * the child is published live once the store persisted its seed. `configPatch` is merged over the
 * config the child inherits at the cut (a `config` option replaces it).
 * @internal
 */
export async function forkOnce(context: HostContext, sourceId: string, forkOptions: ForkOptions, configPatch?: SessionConfig): Promise<ForkResult> {
  const { store } = context;
  const source = await store.observe(sourceId);
  const config = configPatch === undefined ? forkOptions.config : { ...latestConfig(source.events.slice(0, selectForkCut(source.events, forkOptions.atSeq) + 1)), ...configPatch };
  const child = await store.fork(source, {
    atSeq: forkOptions.atSeq ?? LATEST_CLOSED_TURN,
    ...(forkOptions.id === undefined ? {} : { id: forkOptions.id }),
    ...(forkOptions.title === undefined ? {} : { title: forkOptions.title }),
    ...(config === undefined ? {} : { config }),
  });
  // The store persisted the whole seed before returning; only now does the child go live.
  await publish(context, child);
  const cut = child.header.forkCut ?? -1;
  return { sessionId: child.id, parentSession: sourceId, forkCut: cut, inheritedEventCount: child.inheritedEventCount };
}

/**
 * `host.fork`: resolves the source and forks once; with an `idempotencyKey`, the same request
 * returns the first child and a different one is `IDEMPOTENCY_MISMATCH`. A failed request is forgotten.
 * @internal
 */
export async function fork(context: HostContext, sourceRef: string, forkOptions: ForkOptions = {}): Promise<ForkResult> {
  const { idempotent } = context;
  assertOpen(context);
  const { idempotencyKey, ...request } = forkOptions;
  if (idempotencyKey === undefined) return forkOnce(context, await resolveRef(context, sourceRef), request);
  const fingerprint = JSON.stringify([sourceRef, request.atSeq, request.id, request.title, request.config]);
  const remembered = idempotent.get(idempotencyKey);
  if (remembered !== undefined) {
    if (remembered.fingerprint !== fingerprint) {
      throw new HostError(
        'IDEMPOTENCY_MISMATCH',
        `Idempotency-Key '${idempotencyKey}' was first used for a different fork request: expected the same source and options, or a new key.`,
      );
    }
    return remembered.result;
  }
  const result = resolveRef(context, sourceRef).then((sourceId) => forkOnce(context, sourceId, request));
  idempotent.set(idempotencyKey, { fingerprint, result });
  if (idempotent.size > IDEMPOTENCY_CAPACITY) idempotent.delete(idempotent.keys().next().value as string);
  // A failed request is not remembered: retrying it with the same key may succeed.
  result.catch(() => idempotent.delete(idempotencyKey));
  return result;
}
