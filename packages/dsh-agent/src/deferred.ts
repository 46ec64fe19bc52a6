/**
 * @module deferred
 * `Deferred` / `defer`: a promise with its settle functions, for the results the agent hands out.
 */
/** A promise with its settle functions, for results handed out before the work that settles them runs. */
export type Deferred<T> = { promise: Promise<T>; resolve: (value: T) => void; reject: (error: unknown) => void };

/** A new `Deferred`; a rejection nobody awaits is not reported as unhandled. */
export function defer<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  // A rejection nobody awaits (e.g. the result of an input no one asked about) is not an error.
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}
