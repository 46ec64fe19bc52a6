/**
 * A Session's log in memory and its invariants: the events (optionally after an inherited prefix read
 * through an `EventSource` — a fork child's parent events, decoded only when someone reads them), the
 * V6 event checker they passed, and the latest title and config.
 */
import { createEventChecker, type SessionConfig, type SessionEvent, type ValidationIssue } from 'dsh-codec';
import { deepFreeze } from '../deep-freeze.js';
import { arraySource, latestTurnOf, readEvents, type EventSource } from '../sources/event-source.js';
import { joinedSource } from '../sources/joined-source.js';
import { latestMetadataOf } from '../sources/latest-metadata-of.js';
import { SessionError } from '../session-error.js';

/** At most three issues, as one sentence. */
export function issueText(issues: readonly ValidationIssue[]): string {
  const shown = issues.slice(0, 3).map((issue) => `${issue.message} (at ${issue.path.join('.') || 'event'})`);
  return shown.join('; ') + (issues.length > 3 ? `; and ${issues.length - 3} more` : '');
}

/** @internal The checked events of one Session, seq = index. */
export class SessionLog {
  readonly #id: string;
  readonly #checker = createEventChecker();
  #inherited: EventSource | undefined;
  #base = 0;
  #own: SessionEvent[] = [];
  #title: string | undefined;
  #config: SessionConfig | undefined;
  /** Whether title and config may still lie in an inherited prefix nobody has looked into. */
  #inheritedMetadata = false;
  /** How far reads in order from seq 0 have gone through the inherited prefix, and its latest title and config up to there. */
  #scanned = { to: 0, title: undefined as string | undefined, config: undefined as SessionConfig | undefined };

  constructor(id: string) {
    this.#id = id;
  }

  get length(): number {
    return this.#base + this.#own.length;
  }

  /** The latest event, read without decoding an inherited prefix. */
  get last(): SessionEvent | undefined {
    return this.#own.at(-1) ?? (this.#base > 0 ? this.#inherited?.at(this.#base - 1) : undefined);
  }

  /** The latest `session/title`'s title, if any. */
  get title(): string | undefined {
    this.#readInheritedMetadata();
    return this.#title;
  }

  /** The latest `session/config`, if any. */
  get config(): SessionConfig | undefined {
    this.#readInheritedMetadata();
    return this.#config;
  }

  /** Every event as one array that later appends extend; an inherited prefix is decoded here, once. */
  all(): readonly SessionEvent[] {
    const inherited = this.#inherited;
    if (inherited !== undefined) {
      const events = inherited.slice(this.#base);
      for (const event of this.#own) events.push(event);
      this.#own = events;
      this.#inherited = undefined;
      this.#base = 0;
    }
    return this.#own;
  }

  /**
   * Events `from..to-1`. Inherited ones are read from the prefix's source for this call and not kept
   * here (a walk over a long restored log in windows holds one window at a time, not every event twice).
   */
  range(from: number, to: number): SessionEvent[] {
    const inherited = this.#inherited;
    const base = this.#base;
    if (from >= base || inherited === undefined) return this.#own.slice(from - base, to - base);
    const events = readEvents(inherited, from, Math.min(to, base));
    if (this.#inheritedMetadata && from === this.#scanned.to) this.#noteMetadata(events, Math.min(to, base));
    for (let index = Math.max(from, base); index < to; index++) events.push(this.#own[index - base] as SessionEvent);
    return events;
  }

  /** The latest event whose type is one of `types`, read without decoding the rest of an inherited prefix. */
  findLast(types: readonly string[]): SessionEvent | undefined {
    for (let index = this.#own.length - 1; index >= 0; index--) {
      const event = this.#own[index] as SessionEvent;
      if (types.includes(event.type)) return event;
    }
    if (this.#inherited === undefined) return undefined;
    const index = this.#inherited.findLast(types, this.#base);
    return index === -1 ? undefined : this.#inherited.at(index);
  }

  /** The log as it is now, as a source that later appends do not change (nothing is copied or decoded). */
  snapshot(): EventSource {
    if (this.#inherited === undefined) return arraySource(this.#own, this.#own.length);
    return joinedSource(this.#inherited, this.#base, this.#own, this.#own.length);
  }

  /**
   * Checks `event` as the next one (`plainJson`: see `EventChecker.accept`); appends it, frozen, and
   * returns `[]`, or returns the issues and changes nothing.
   */
  accept(event: SessionEvent, plainJson = false): ValidationIssue[] {
    const issues = this.#checker.accept(event, plainJson);
    if (issues.length === 0) this.#push(deepFreeze(event));
    return issues;
  }

  /** Appends a seed event, refusing it (`INVALID_EVENT` / `INVALID_RELATIONSHIP`) when it breaks a rule of the current format. */
  admit(event: SessionEvent): void {
    const issues = this.accept(event);
    if (issues.length === 0) return;
    const code = issues.some((issue) => issue.code === 'INVALID_RELATIONSHIP') ? 'INVALID_RELATIONSHIP' : 'INVALID_EVENT';
    throw new SessionError(code, `Invalid seed for session ${this.#id} at seq ${String(event.seq)}: ${issueText(issues)}`, {
      sessionId: this.#id,
    });
  }

  /** Takes `events[0..count)`, already validated, as the start of the (empty) log: frozen, title and config from the latest ones. */
  adopt(events: readonly SessionEvent[], count: number): void {
    this.#checker.advanceThrough(events, count);
    for (let index = 0; index < count; index++) deepFreeze(events[index] as SessionEvent);
    // One bulk copy (a fork of 50k events: ~0.3 ms against ~1.2 ms pushing one by one).
    this.#own = events.slice(0, count);
    for (let index = count - 1; index >= 0 && (this.#title === undefined || this.#config === undefined); index--) {
      const event = this.#own[index] as SessionEvent;
      if (event.type === 'session/title') this.#title ??= (event.data as { title: string }).title;
      else if (event.type === 'session/config') this.#config ??= event.data as SessionConfig;
    }
  }

  /**
   * Takes `source[0..count)` as the start of the (empty) log without copying it. A prefix this package
   * validated only advances the checker past its latest turn; any other is decoded and checked here.
   */
  inherit(source: EventSource, count: number, validated: boolean): void {
    if (!validated) {
      for (const event of source.slice(count)) this.admit(event);
      return;
    }
    this.#checker.advancePast(count, latestTurnOf(source, count));
    this.#inherited = source;
    this.#base = count;
    this.#inheritedMetadata = count > 0;
  }

  #push(event: SessionEvent): void {
    this.#own.push(event);
    if (event.type === 'session/title') this.#title = (event.data as { title: string }).title;
    else if (event.type === 'session/config') this.#config = event.data as SessionConfig;
  }

  /**
   * Notes the latest title and config of `events`, the inherited events read in order up to `to`: once
   * every inherited event went by (an agent reading its log in windows), they are known without a search.
   */
  #noteMetadata(events: readonly SessionEvent[], to: number): void {
    const scanned = this.#scanned;
    for (const event of events) {
      if (event.type === 'session/title') scanned.title = (event.data as { title: string }).title;
      else if (event.type === 'session/config') scanned.config = event.data as SessionConfig;
    }
    scanned.to = to;
    if (to < this.#base) return;
    this.#inheritedMetadata = false;
    this.#title ??= scanned.title;
    this.#config ??= scanned.config;
  }

  /** Title and config from an inherited prefix, looked up once when first asked (later events override them). */
  #readInheritedMetadata(): void {
    if (!this.#inheritedMetadata) return;
    this.#inheritedMetadata = false;
    if (this.#title !== undefined && this.#config !== undefined) return;
    const latest = latestMetadataOf(this.snapshot());
    this.#title ??= latest.title;
    this.#config ??= latest.config;
  }
}
