/**
 * @module dsh-session/internal
 * What dsh's own storage packages need of dsh-session and its users never do: dsh's backend
 * interface (`FastBackend`: the fast-path read and inherit forms a backend may hand the store, the
 * summary parts for `list()`, `watch`, `findForkChild`), the two views between it and the public
 * `SessionBackend`, and this process's identity for a lease. Only dsh-postgres (and dsh-session's
 * tests) may import this entry (`dsh/layers`); it follows dsh-session's version but is no public
 * contract. The main entry never imports it.
 */
export type { FastBackend, FastWriter, InheritedRecords, StoredRead, StoredSummary } from './fast-backend.js';
/** `asSessionBackend(fast)`: the public face of a dsh backend; `fastBackendOf(backend)`: the fast one behind it, or an adapter over a public backend. */
export { asSessionBackend, fastBackendOf } from './store/backend-views.js';
/** This process's identity (pid, host, start time, PID namespace, boot id) and whether a recorded process is known to be gone. */
export { currentProcess, isProcessAlive, type ProcessIdentity } from './jsonl/process-identity.js';
