/**
 * @module The settings of the pool `openPostgresStore` opens for itself (the tests open their own
 * pools with the same connection options).
 */

/**
 * The pool the store opens for itself: its connections start with JIT compilation off. dsh's
 * statements are lookups by key whose cost estimates (recursive segment chains, a series of chunks)
 * can pass `jit_above_cost` on a default server, and compiling them costs more than they take to run
 * — hundreds of milliseconds for the chunked read of a 100,000-event log. A `?options=` in the URL
 * takes precedence; a pool passed in is used as configured (docs/storage.md says what to set).
 */
export const OWN_POOL_SETTINGS = { max: 10, connectionTimeoutMillis: 10_000, options: '-c jit=off' } as const;
