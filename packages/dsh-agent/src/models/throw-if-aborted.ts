/**
 * @module models/throw-if-aborted
 * `throwIfAborted`: the abort check the adapters run before and between their awaits.
 */
/** Throws the signal's reason (an `AbortError` by default) when it has fired. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  signal?.throwIfAborted();
}
