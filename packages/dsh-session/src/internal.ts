/**
 * @module dsh-session/internal
 * What dsh's own storage packages need of dsh-session and its users never do: the fast-path read
 * and inherit forms a backend may hand the store, the summary parts for `list()`, and this process's
 * identity for a lease. Only dsh-postgres (and dsh-session's tests) may import this entry (`dsh/layers`);
 * it follows dsh-session's version but is no public contract. The main entry never imports it.
 */
export type { InheritedRecords, StoredLog, StoredSummary } from './session-backend.js';
/** This process's identity (pid, host, start time, PID namespace, boot id) and whether a recorded process is known to be gone. */
export { currentProcess, isProcessAlive, type ProcessIdentity } from './jsonl/process-identity.js';
