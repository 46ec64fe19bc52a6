/**
 * @module dsh's own backend interface (`FastBackend`), the one the store works against: the public
 * `SessionBackend` plus the read and inherit forms that let the store skip work it or a writer of
 * this backend already did (verified JSONL bytes, validated lines, records a Session validated, a
 * stored prefix a fork child may refer to), summary parts for `list()`, and the capabilities of a
 * backend shared across hosts (`watch`, `findForkChild`). Reached only through `dsh-session/internal`
 * (dsh-postgres) and inside this package; a public backend is adapted to it (`backend-views.ts`).
 */
import type { SessionEvent, SessionHeader } from 'dsh-codec';
import type { SessionBackend, SessionWriter } from './session-backend.js';

/**
 * A stored log in the form a dsh backend read it: raw JSONL text (any format version,
 * possibly with a torn final line; the store decodes it), verified JSONL bytes, validated lines, or
 * records that are already current.
 */
export type StoredRead =
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
 * holds under its lease; `source`: as they lie in the stored prefix a read named by its
 * `StoredRead.source`; `events`: nothing to copy. Every kind also gives the events themselves
 * (`events()`, decoded when called) for a backend that cannot use the other form; the stored result
 * must decode to the same events either way.
 */
export type InheritedRecords = { count: number; events: () => readonly SessionEvent[] } & (
  { kind: 'jsonl'; bytes: Buffer } | { kind: 'stored'; sourceId: string } | { kind: 'source'; source: string } | { kind: 'events' }
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

/** A dsh backend's writer: reads in any `StoredRead` form, drops torn tails, stamps what the store validated. */
export interface FastWriter extends Omit<SessionWriter, 'read'> {
  read(): Promise<StoredRead>;
  /** Drops a torn final line, from 1-based `line` on (only logs read as `jsonl` can have one). */
  discardTornTail(line: number): Promise<void>;
  /**
   * Optional: the store decoded and validated every complete line `read()` returned. A JSONL writer
   * then stamps the log as verified when it releases it (`jsonl-verified-stamp.ts`).
   */
  markValidated?(): void;
}

/** The backend interface the store works against (a public `SessionBackend` is adapted to it). */
export interface FastBackend extends Omit<SessionBackend, 'create' | 'acquire' | 'read'> {
  /**
   * As `SessionBackend.create`; a fork child passes its first events as `inherited` (so they can be
   * stored without encoding them again) and `events` holds only the events after them, from seq
   * `inherited.count` on.
   */
  create(id: string, header: SessionHeader, events: readonly SessionEvent[], inherited?: InheritedRecords): Promise<FastWriter>;
  acquire(id: string): Promise<FastWriter>;
  read(id: string): Promise<StoredRead>;
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
