/**
 * @module `Session` (SPEC §11): appends checked against the log's invariants, seeds and counters, group-committed
 * through its sink; what the store hands out for create, open and fork.
 */
import {
  ownedJson,
  type DshEvent,
  type FormatVersion,
  type FrozenJson,
  type JsonValue,
  type SessionConfig,
  type SessionEvent,
  type SessionHeader,
  type SurfaceOp,
} from 'dsh-codec';
import { deepFreeze } from '../deep-freeze.js';
import type { EventSource } from '../sources/event-source.js';
import type { ResumePoint } from '../fast-backend.js';
import { GroupCommit } from './group-commit.js';
import { isTransientStorageError, SessionError } from '../session-error.js';
import type { SessionInit } from './session-init.js';
import { issueText, SessionLog } from './session-log.js';
import type { SessionSink } from './session-sink.js';
import { takeSeed } from './take-seed.js';

/** @internal How the store reads a Session's log without copying or decoding it (not exported from the package). */
export const LOG_SNAPSHOT: unique symbol = Symbol('dsh-session.log-snapshot');

/** @internal How the store reopens a closed Session: what its writer knew of the log at a clean release (not exported from the package). */
export const RESUME_POINT: unique symbol = Symbol('dsh-session.resume-point');

/** Options of `Session.append`. */
export type AppendOptions = { surfaceOp?: SurfaceOp; ignorable?: true };

/**
 * An append-only session log in memory, bound to its store. `append` assigns seq and time, checks the
 * event against V6 shapes and relationships and freezes it; `flush` makes every appended event durable
 * (appends are group-committed); `close` flushes and releases the single-writer lease.
 */
export class Session {
  readonly id: string;
  readonly header: SessionHeader;
  /** The first seq the live loop writes: the length of the complete constructor input. */
  readonly firstLiveSeq: number;
  /** The first seq owned by this lifecycle (fork: the inherited marker; restored: the stored length). */
  readonly firstLifecycleSeq: number;
  /** The format version this session's log was read from when it was opened (current for new ones). */
  readonly formatVersion: FormatVersion;
  readonly #log: SessionLog;
  readonly #sink: SessionSink;
  readonly #now: () => number;
  readonly #listeners = new Set<(event: SessionEvent) => void>();
  #closed = false;
  #closing: Promise<void> | undefined;
  readonly #commits: GroupCommit;

  /** @internal Sessions come from a `SessionStore`. Validates the seed and counters of SPEC §5.3. */
  constructor(init: SessionInit) {
    const { header, seed } = init;
    this.id = header.id;
    this.header = deepFreeze({ ...header });
    this.#sink = init.sink;
    this.#now = init.now;
    this.formatVersion = init.formatVersion;
    this.#log = new SessionLog(this.id);
    const { durableCount } = init;
    const taken = takeSeed(
      this.#log,
      this.header,
      seed,
      { validatedCount: init.validatedCount, durableCount: durableCount === 'all' ? 0 : durableCount },
      this.#now,
    );
    this.firstLifecycleSeq = taken.firstLifecycleSeq;
    this.firstLiveSeq = this.#log.length;
    for (const { type, data } of init.appends ?? []) this.#accept(type, data, {});
    this.#commits = new GroupCommit(
      () => this.#log.length,
      (from, to) => this.#write(from, to),
      durableCount === 'all' ? this.#log.length : Math.min(taken.durableCount, this.#log.length),
      isTransientStorageError,
    );
  }

  /**
   * The log so far; every event is frozen. Take `slice()` for a snapshot. A fork child's inherited
   * events are decoded on the first read of this property (a fork copies them as bytes and reads only
   * its cut); `nextSeq`, `latest()` and `eventsFrom()` never decode them. Typed `DshEvent`: every event
   * passed the V6 event checker, so `if (e.type === 'tool/call')` narrows to the `tool/call` event.
   */
  get events(): readonly DshEvent[] {
    return this.#log.all() as readonly DshEvent[];
  }

  /** The seq the next append gets: the log's length. */
  get nextSeq(): number {
    return this.#log.length;
  }

  /** The latest event whose type is one of `types` (e.g. `'turn/start', 'turn/end'`), if any. */
  latest(...types: string[]): DshEvent | undefined {
    return this.#log.findLast(types) as DshEvent | undefined;
  }

  /**
   * A new array of the events from `seq` on (all of them for `seq` ≤ 0), before `end` when given. A
   * stored or inherited prefix is decoded for the call and not kept by the session: a walk over a
   * long log in windows (`eventsFrom(n, n + 4096)`) holds one window at a time.
   */
  eventsFrom(seq: number, end?: number): DshEvent[] {
    const length = this.#log.length;
    const clamp = (value: number): number => Math.min(Math.max(0, Math.trunc(value)), length);
    const from = clamp(seq);
    return this.#log.range(from, Math.max(from, end === undefined ? length : clamp(end))) as DshEvent[];
  }

  /** @internal The log as it is now, without copying or decoding it (a live fork's source). */
  [LOG_SNAPSHOT](): EventSource {
    return this.#log.snapshot();
  }

  /**
   * @internal Once `close()` released the lease cleanly (every event durable), what its writer knew
   * of the log, so `SessionStore.reopen` can continue from this log without reading it; else undefined.
   */
  async [RESUME_POINT](): Promise<ResumePoint | undefined> {
    if (this.#closing === undefined) return undefined;
    try {
      await this.#closing;
    } catch {
      return undefined;
    }
    return this.#sink.resumePoint?.();
  }

  /** Copied parent events (durable in the header); 0 unless this session is a fork child. */
  get inheritedEventCount(): number {
    return this.header.inheritedEventCount;
  }

  /** The latest `session/title`, if any. */
  get title(): string | undefined {
    return this.#log.title;
  }

  /** The latest `session/config`, if any. */
  get config(): SessionConfig | undefined {
    return this.#log.config;
  }

  /** True once `close()` was called; appends then fail with `SESSION_CLOSED`. */
  get closed(): boolean {
    return this.#closed;
  }

  /**
   * Appends one event: seq is the next index, time is `Date.now()` but never earlier than the previous
   * event's. `data` is copied and frozen (the caller's value is never kept); a `FrozenJson` (dsh-codec) is
   * kept as it is, already a checked frozen copy. Throws `INVALID_EVENT` (appending nothing) when the
   * event breaks a shape or relationship of the current format.
   */
  append(type: string, data: JsonValue | FrozenJson, options: AppendOptions = {}): DshEvent {
    if (this.#closed) {
      throw new SessionError('SESSION_CLOSED', `Cannot append ${type} to session ${this.id}: it is closed.`, {
        sessionId: this.id,
      });
    }
    const event = this.#accept(type, data, options);
    this.#commits.schedule();
    if (this.#listeners.size === 0) return event as DshEvent;
    for (const listener of [...this.#listeners]) {
      try {
        listener(event);
      } catch (error) {
        // A listener's bug must not undo an accepted append (nor crash a server): report it loudly.
        process.emitWarning(error instanceof Error ? error : new Error(String(error)), {
          code: 'DSH_SESSION_LISTENER',
          detail: `A subscriber of session ${this.id} threw on the event at seq ${event.seq}; the event stays appended.`,
        });
      }
    }
    return event as DshEvent;
  }

  /** The checks of `append` (SPEC §5.3's refusals, lossless JSON, the event checker); the event, frozen, joins the log. */
  #accept(type: string, data: JsonValue | FrozenJson, options: AppendOptions): SessionEvent {
    const seq = this.#log.length;
    if (type === 'session/end-seed')
      this.#refuse(type, seq, 'session/end-seed is written only by the Session constructor and buildForkSeed.');
    // A frozen copy (the caller's value is never kept), made by the walk that checks it is lossless —
    // or, for a FrozenJson, the one its caller already made (checked and copied once).
    const copy = ownedJson(data);
    if (copy === undefined) {
      this.#refuse(type, seq, 'expected lossless JSON data (no undefined, NaN, ±Infinity, -0, sparse arrays or non-plain objects).');
    }
    if (type === 'turn/end' && typeof copy === 'object' && copy !== null && !Array.isArray(copy)) {
      const reason = copy.reason;
      const kind = typeof reason === 'object' && reason !== null && !Array.isArray(reason) ? reason.kind : undefined;
      if (kind === 'interrupted' || kind === 'forked') {
        this.#refuse(type, seq, `turn/end reason "${kind}" is written only by the shared closer (crash repair and forks).`);
      }
    }
    const previous = this.#log.last;
    const time = Math.max(this.#now(), previous?.time ?? Number.MIN_SAFE_INTEGER);
    const event: { -readonly [K in keyof SessionEvent]: SessionEvent[K] } = { seq, type, time, data: copy };
    if (options.surfaceOp !== undefined) {
      event.surfaceOp = Object.freeze({ op: options.surfaceOp.op, start: options.surfaceOp.start, end: options.surfaceOp.end });
    }
    if (options.ignorable === true) event.ignorable = true;
    // The copy is plain and was found lossless above: the checker need not walk it for that again.
    // Its data and surfaceOp are frozen already: freezing the envelope freezes the whole event.
    const issues = this.#log.accept(Object.freeze(event), true);
    if (issues.length > 0) this.#refuse(type, seq, issueText(issues));
    return event;
  }

  /**
   * Calls `listener` synchronously after each append, in order; returns the unsubscribe function.
   * A throwing listener does not affect the append or other listeners (it is reported as a process warning).
   */
  subscribe(listener: (event: DshEvent) => void): () => void {
    const wrapped = (event: SessionEvent) => {
      listener(event as DshEvent);
    };
    this.#listeners.add(wrapped);
    return () => {
      this.#listeners.delete(wrapped);
    };
  }

  /** Resolves when every event appended so far is durable; immediate when nothing is pending. */
  flush(): Promise<void> {
    return this.#commits.flush();
  }

  /**
   * Flushes, then releases the single-writer lease. Idempotent; appends fail afterwards. A flush that
   * fails for a passing storage failure keeps the lease (close again later); one that finds the lease
   * lost (`SESSION_BUSY`) releases what this session holds and rejects with it: nothing more can be written.
   */
  close(): Promise<void> {
    this.#closed = true;
    // One close at a time; a failed flush leaves the lease held so close() can be retried.
    this.#closing ??= this.flush()
      .then(() => this.#sink.release())
      .catch(async (error: unknown) => {
        this.#closing = undefined;
        if (SessionError.is(error) && error.code === 'SESSION_BUSY') await this.#sink.release().catch(() => undefined);
        throw error;
      });
    return this.#closing;
  }

  #refuse(type: string, seq: number, why: string): never {
    throw new SessionError('INVALID_EVENT', `Cannot append ${type} at seq ${String(seq)} of session ${this.id}: ${why}`, {
      sessionId: this.id,
    });
  }

  /** Makes events `from..to-1` durable through the sink, as one batch; failures become `WRITE_FAILED` unless typed. */
  async #write(from: number, to: number): Promise<void> {
    const batch = this.#log.range(from, to);
    try {
      await this.#sink.write(batch, from, () => this.#log.all());
    } catch (error) {
      throw writeError(this.id, from, to, error);
    }
  }
}

/**
 * @internal What a failed write of events `from..to-1` of session `id` rejects with: a `SessionError`
 * as it is (`SESSION_EXISTS`, `SESSION_BUSY`, …), anything else as `WRITE_FAILED` with it as cause.
 */
export function writeError(id: string, from: number, to: number, error: unknown): SessionError {
  if (SessionError.is(error)) return error;
  return new SessionError(
    'WRITE_FAILED',
    `Could not make events ${from}–${to - 1} of session ${id} durable; they stay pending and the next flush retries.`,
    {
      sessionId: id,
      cause: error,
    },
  );
}
