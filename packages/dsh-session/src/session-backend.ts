/**
 * The storage interface under `SessionStore` (SPEC §8): async and free of filesystem assumptions, so
 * a networked backend (PostgreSQL) can implement it. Backends store V5 records; the store decodes,
 * repairs and validates. Every write goes through a `SessionWriter`, which holds the single-writer lease.
 */
import type { SessionEvent, SessionHeader } from 'dsh-codec';
import type { LeaseHolder } from './session-error.js';

/**
 * A stored log as the backend keeps it: raw JSONL text (any format version, possibly with a torn
 * final line; the store decodes it) or records that are already V5.
 */
export type StoredLog =
  | {
      kind: 'jsonl';
      text: string;
      /**
       * Optional: an opaque reference to the immutable stored prefix this text was read from. A fork
       * of this read hands it back in `InheritedRecords.source`, so a backend can refer to the prefix
       * instead of copying it (a no-copy fork).
       */
      source?: string;
    }
  | {
      /**
       * JSONL bytes that a writer of this backend validated and stamped and that are unchanged since
       * (`jsonl-verified-stamp.ts`): current-format lines, LF-terminated, no torn tail. The store may
       * read them line by line without validating them again.
       */
      kind: 'verified-jsonl';
      bytes: Buffer;
    }
  | {
      /**
       * A backend's own event lines, `lines[i]` (i < `count`) holding event seq `i` as `serializeEvent` wrote it
       * (current format, `\n`-terminated), each validated by a dsh Session or the codec before the
       * backend stored it and unchanged since (PostgreSQL: rows whose seal still matches). The store
       * parses a line only when its event is read, so a fork or a summary of a long log parses a few.
       */
      kind: 'validated-lines';
      header: SessionHeader;
      /** May be longer than this read (a backend may share one growing array between reads): only the first `count` are its lines. */
      lines: readonly string[];
      /** How many events this read holds: `lines[0 .. count - 1]`. */
      count: number;
      /** Optional, as for `jsonl`: the immutable stored prefix these lines were read from (a no-copy fork of this read hands it back). */
      source?: string;
    }
  | {
      kind: 'records';
      header: SessionHeader;
      /** A fresh array per read: the store keeps it (frozen) as the observation's events. */
      events: readonly SessionEvent[];
      /**
       * Set when every record was validated by a dsh Session (or the codec) before the backend stored
       * it and cannot have changed since: the store then skips validating them again.
       */
      validated?: true;
      /** Optional, as for `jsonl`: the immutable stored prefix these records were read from (a no-copy fork of this read hands it back). */
      source?: string;
    };

/**
 * A fork child's first `count` events, which are exactly the source's first `count` events, in the
 * form its `create` may store without encoding them again. `jsonl`: their JSONL lines as the store
 * read and validated (or verified) them; `stored`: as they lie in the source's log, which this backend
 * holds under its lease; `source`: as they lie in the stored prefix a `records` read named by its
 * `StoredLog.source`; `events`: nothing to copy. Every kind also gives the events themselves
 * (`events()`, decoded when called) for a backend that cannot use the other form; the stored result
 * must decode to the same events either way.
 */
export type InheritedRecords = { count: number; events: () => readonly SessionEvent[] } & (
  | { kind: 'jsonl'; bytes: Buffer }
  | { kind: 'stored'; sourceId: string }
  | { kind: 'source'; source: string }
  | { kind: 'events' }
);

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

/**
 * A stored session's id and a stamp that changes whenever its log changes (for caching summaries);
 * `held`, when the backend read it with the list, says whether a live holder has its lease (so
 * `list()` need not ask `holder()` per session).
 */
export type StoredSessionRef = { id: string; stamp: string; held?: boolean };

/** Write access to one session, held under its single-writer lease until `release()`. */
export interface SessionWriter {
  /** Reads the log as stored now (under the lease, so nobody else changes it). */
  read(): Promise<StoredLog>;
  /**
   * Appends `events` durably as one batch; fails when the stored log does not end just before
   * `expectedNextSeq`. A failed append leaves the stored log as it was before the call.
   */
  append(expectedNextSeq: number, events: readonly SessionEvent[]): Promise<void>;
  /** Atomically replaces the whole log with a V5 header and these events (format transition, torn tail). */
  replace(header: SessionHeader, events: readonly SessionEvent[]): Promise<void>;
  /** Drops a torn final line, from 1-based `line` on (only logs read as `jsonl` can have one). */
  discardTornTail(line: number): Promise<void>;
  /**
   * Optional: the store decoded and validated every complete line `read()` returned. A JSONL writer
   * then stamps the log as verified when it releases it (`jsonl-verified-stamp.ts`).
   */
  markValidated?(): void;
  /** Gives the lease up; the writer is unusable afterwards. */
  release(): Promise<void>;
}

/** The operations a `SessionStore` needs from its storage. Errors are `SessionError`s. */
export interface SessionBackend {
  /**
   * Creates a session atomically with its header and seed events and returns its writer: after a
   * crash there is either no session or all of it. `SESSION_EXISTS` when the id is taken. A fork
   * child passes its first events as `inherited` (so they can be stored without encoding them again)
   * and `events` holds only the events after them, from seq `inherited.count` on.
   */
  create(id: string, header: SessionHeader, events: readonly SessionEvent[], inherited?: InheritedRecords): Promise<SessionWriter>;
  /** Takes the single-writer lease. `SESSION_NOT_FOUND`; `SESSION_BUSY` naming a live holder. */
  acquire(id: string): Promise<SessionWriter>;
  /** Reads a stored log without a lease (it may be growing). `SESSION_NOT_FOUND`. */
  read(id: string): Promise<StoredLog>;
  exists(id: string): Promise<boolean>;
  list(): Promise<StoredSessionRef[]>;
  /** The live holder of the session's lease, if any. */
  holder(id: string): Promise<LeaseHolder | undefined>;
  /** Deletes a session under its lease (`SESSION_BUSY` when held, `SESSION_NOT_FOUND`). */
  delete(id: string): Promise<void>;
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
  close(): Promise<void>;
}
