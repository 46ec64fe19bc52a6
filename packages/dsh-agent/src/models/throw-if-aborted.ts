/** Throws the signal's reason (an `AbortError` by default) when it has fired. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  signal?.throwIfAborted();
}
