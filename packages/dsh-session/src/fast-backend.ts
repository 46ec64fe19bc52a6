/**
 * @module dsh's own backend interface (`FastBackend`), the one the store works against: the public
 * `SessionBackend` plus the read and inherit forms that let the store skip work it or a writer of
 * this backend already did (verified JSONL bytes, validated lines, records a Session validated, a
 * stored prefix a fork child may refer to), summary parts for `list()`, and the capabilities of a
 * backend shared across hosts (`watch`, `findForkChild`). Reached only through `dsh-session/internal`
 * (dsh-postgres) and inside this package; a public backend is adapted to it (`backend-views.ts`).
 */
import type { DecodedLog as CodecDecodedLog, FormatVersion, SessionEvent, SessionHeader, TornTail } from 'dsh-codec';
import type { Provenance } from './provenance.js';
import type { SessionBackend, SessionWriter, StoredLog } from './session-backend.js';
import type { LeaseHolder } from './session-error.js';
import type { EventSource } from './sources/event-source.js';

/**
 * A stored log as a dsh backend read it, which observes and decodes itself: JSONL text of any format
 * version (`JsonlTextLog`), JSONL bytes a writer of this backend verified (`VerifiedJsonlLog`), a
 * backend's validated lines (`ValidatedLinesLog`), or current records (`RecordsLog`). The store never
 * asks which: it asks the log for an observation, a decoded log, or the public shape.
 */
export interface StoredLines {
  /** What an observation needs (only the lines it must read are parsed); `CORRUPT` and codec codes as `decode`. */
  observe(id: string): ObservedLog;
  /** Every event, decoded (and migrated) to the current version; codec failures become `SessionError`s, a header naming another session is `CORRUPT`. */
  decode(id: string): DecodedLog;
  /** The public read shape (`SessionBackend.read`): records as they are, any other form decoded. */
  storedLog(id: string): StoredLog;
  /**
   * The log as `open` may take it without decoding it: when every event is vouched for (verified
   * bytes, validated lines) and nothing needs repairing or rewriting (current format, LF line ends,
   * no torn tail) — its frozen header and its events as a source, decoded only where read; else undefined.
   */
  trustedSource?(id: string): TrustedSource | undefined;
}

/** A stored log `open` takes as it is: header and events, every one validated before it was stored. */
export type TrustedSource = { header: SessionHeader; source: EventSource };

/**
 * A read: its log, and optionally its `provenance` — this backend's reference to where the log lies in
 * its storage (`provenance.ts`). A fork of the read hands the provenance back in
 * `InheritedRecords.provenance`, so the backend can refer to or copy the stored prefix (a no-copy fork).
 */
export type StoredRead = { log: StoredLines; provenance?: Provenance };

/**
 * A stored log observed: its header (a verified or validated one frozen), the version it was read in,
 * whether `open` would repair it, any torn tail, its events as a source read by position, and how many
 * leading events need no validating again (all, unless a backend's records carry no validated claim).
 */
export type ObservedLog = {
  header: SessionHeader;
  formatVersion: FormatVersion;
  needsRepair: boolean;
  tornTail?: TornTail | undefined;
  source: EventSource;
  validated: number;
};

/**
 * A stored log decoded as the current version: its events (frozen when they are a backend's records
 * or validated lines), the version it was written in, any torn tail, `rewrite` — whether its first
 * write must replace the whole log (an older version, or lines not ending in LF) instead of appending
 * — and how many leading events need no validating again.
 */
export type DecodedLog = {
  header: SessionHeader;
  events: readonly SessionEvent[];
  sourceVersion: FormatVersion;
  tornTail: TornTail | undefined;
  lineEndings: CodecDecodedLog['lineEndings'];
  rewrite: boolean;
  validated: number;
};

/**
 * A fork child's first `count` events, which are exactly the source's first `count` events:
 * `events()` gives them (decoded when called), and `provenance`, when the source's read (or its
 * writer's backend, for a live source) minted one, lets the backend that minted it store them
 * without encoding them again. The stored result must decode to the same events either way.
 */
export type InheritedRecords = { count: number; events: () => readonly SessionEvent[]; provenance?: Provenance };

/**
 * What `list()` needs of a stored session, read without the rest of its log (`readSummary`): its
 * header and length, the lines (as `serializeEvent` wrote them, each validated before it was stored)
 * of its last event, its latest `session/title` and its latest `session/config` that names a `cwd`
 * (each when it has one), and the seqs of its latest `turn/start` and `turn/end` (-1 for none).
 */
export type StoredSummary = {
  header: SessionHeader;
  count: number;
  lines: ReadonlyMap<number, string>;
  latestTurnStart: number;
  latestTurnEnd: number;
};

/** A dsh backend's writer: reads in any `StoredLines` form, drops torn tails, stamps what the store validated. */
export interface FastWriter extends Omit<SessionWriter, 'read'> {
  read(): Promise<StoredRead>;
  /** Drops a torn final line, from 1-based `line` on (only logs read as JSONL text can have one). */
  discardTornTail(line: number): Promise<void>;
  /**
   * Optional: the store decoded and validated every complete line `read()` returned. A JSONL writer
   * then stamps the log as verified when it releases it (`jsonl-verified-stamp.ts`).
   */
  markValidated?(): void;
  /**
   * Optional: after a clean `release()` (everything durable, every line validated, the lease not
   * lost), what this writer knows of the log as it left it, for `resume` of a later writer; else undefined.
   */
  resumePoint?(): ResumePoint | undefined;
  /**
   * Optional, instead of `read()`: when the log is exactly as `point` (from a released writer of the
   * same log) describes it — checked without reading its history — takes up that writer's state and
   * returns `{}`; when another writer only appended validated lines since (the bytes before checked
   * unchanged without reading them), returns those lines as `appended` (its events seq `first` on,
   * decoded when read); false when anything else may have changed (then `read()` as usual).
   */
  resume?(point: ResumePoint): Promise<ResumedLog | false>;
}

/** What `FastWriter.resume` found past the point: nothing, or the lines another writer appended. */
export type ResumedLog = { readonly appended?: { readonly first: number; readonly source: EventSource } };

/** What a released writer knows of its log (opaque outside the backend that made it). */
export type ResumePoint = { readonly backend: string };

/** The backend interface the store works against (a public `SessionBackend` is adapted to it). */
export interface FastBackend extends Omit<SessionBackend, 'create' | 'acquire' | 'read' | 'exists' | 'holder' | 'close'> {
  /** As `SessionBackend.exists`, required here (the adapter over a public backend supplies it). */
  exists(id: string): Promise<boolean>;
  /** As `SessionBackend.holder`, required here. */
  holder(id: string): Promise<LeaseHolder | undefined>;
  close(): Promise<void>;
  /**
   * As `SessionBackend.create`; a fork child passes its first events as `inherited` (so they can be
   * stored without encoding them again) and `events` holds only the events after them, from seq
   * `inherited.count` on.
   */
  create(id: string, header: SessionHeader, events: readonly SessionEvent[], inherited?: InheritedRecords): Promise<FastWriter>;
  acquire(id: string): Promise<FastWriter>;
  read(id: string): Promise<StoredRead>;
  /**
   * Optional: a read of session `id` for a fork of it at `atSeq` (a seq, or `'latest-closed-turn'`) by a
   * store that does not hold it open: a log holding at least what the fork reads (its cut, the latest
   * turn up to the cut, the latest turn of the log, the latest title and config), whose other events
   * may load only when first read (`WindowedLinesLog`). Without it, forks read through `read`.
   */
  readForFork?(id: string, atSeq: number | 'latest-closed-turn'): Promise<StoredRead>;
  /**
   * Optional: a provenance for session `id` as a writer of this backend in this process holds it (a
   * live session of the store); a fork child of that session hands it back to `create`. Undefined
   * when the backend cannot refer to a held log.
   */
  heldProvenance?(id: string): Provenance | undefined;
  /**
   * Optional: calls `listener` with the events of session `id` from seq `fromSeq` on — those already
   * stored, then each batch any writer (in any process or host) commits — in order, each once, until
   * the returned function is called. For backends shared across hosts (PostgreSQL: LISTEN/NOTIFY).
   */
  watch?(id: string, fromSeq: number, listener: (events: readonly SessionEvent[]) => void): Promise<() => void>;
  /**
   * Optional: the header of the fork child stored under Idempotency-Key `key` (its V5
   * `forkRequest.key`), or undefined — for backends that index keys (PostgreSQL: a unique index), so
   * a lookup does not read every session. Without it, callers scan `SessionStore.list()`.
   */
  findForkChild?(key: string): Promise<SessionHeader | undefined>;
  /**
   * Optional: the parts of a stored session its summary is made of, without reading its other events
   * (PostgreSQL: rows indexed by type), or undefined when this session cannot be summarized so (then
   * the store reads it). `SESSION_NOT_FOUND`.
   */
  readSummary?(id: string): Promise<StoredSummary | undefined>;
}
