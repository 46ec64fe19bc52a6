/**
 * @module dsh-session/internal
 * What dsh's own storage packages need of dsh-session and its users never do: dsh's backend
 * interface (`FastBackend`: the read forms a backend may hand the store, each observing and decoding
 * itself, the provenance a backend mints for its reads, the summary parts for `list()`, `watch`,
 * `findForkChild`), the two views between it and the public
 * `SessionBackend`, and this process's identity for a lease. Only dsh-postgres (and dsh-session's
 * tests) may import this entry (`dsh/layers`); it follows dsh-session's version but is no public
 * contract. The main entry never imports it.
 */
export type {
  DecodedLog,
  FastBackend,
  FastWriter,
  InheritedRecords,
  ObservedLog,
  StoredLines,
  StoredRead,
  StoredSummary,
} from './fast-backend.js';
/** A backend's opaque reference to where a read lies in its storage: each backend makes its own kind, which alone reads what it minted. */
export { provenanceKind, type Provenance, type ProvenanceKind } from './provenance.js';
/** The read forms a backend of another package builds: JSONL text (decoded by the codec), validated lines, current records. */
export { JsonlTextLog } from './jsonl/jsonl-text-log.js';
export { RecordsLog } from './sources/records-log.js';
export { ValidatedLinesLog } from './sources/validated-lines-log.js';
/** Validated lines of which a backend read only a window (a fork's), the rest loaded synchronously on first need. */
export { WindowedLinesLog } from './sources/windowed-lines-log.js';
export type { LinesWindow } from './sources/windowed-lines.js';
/** `asSessionBackend(fast)`: the public face of a dsh backend; `fastBackendOf(backend)`: the fast one behind it, or an adapter over a public backend. */
export { asSessionBackend, fastBackendOf } from './backend-views.js';
/** This process's identity (pid, host, start time, PID namespace, boot id) and whether a recorded process is known to be gone. */
export { currentProcess, isProcessAlive, type ProcessIdentity } from './jsonl/process-identity.js';
