/**
 * A log validated as it is read, event by event, for any version since V2: the header, every
 * event through the version's `EventValidator`, and the fork child's inherited marker. The decoder
 * feeds lines as it parses them, `validate(n)` feeds an array. A version folder configures it.
 */
import { EventValidator, type EventRules } from './event-validator.js';
import type { Issue } from './issue.js';

/** The inherited-marker check of one log (a fork child's marker sits right after its inherited events). */
export interface MarkerRules {
  /** Whether `event(index, …)` can report anything. */
  concerns(index: number): boolean;
  /** Issues about the event at `index`; an event whose shape is invalid (`shapeValid` false) only counts as present. */
  event(index: number, type: string, data: unknown, shapeValid?: boolean): Issue[];
  /** Issues once every event is seen. */
  finish(eventCount: number): Issue[];
}

/** What a version configures: its header check, its event rules, and the marker check of a sound header. */
export interface LogRules<View> {
  checkHeader(header: unknown): Issue[];
  events: EventRules<View>;
  marker(header: unknown): MarkerRules;
}

/** One log's validation; issues accumulate in `issues`. */
export class LogValidation<View extends { type: string; data: unknown }> {
  readonly issues: Issue[];
  private readonly events: EventValidator<View>;
  private readonly marker: MarkerRules | undefined;
  private count = 0;

  constructor(rules: LogRules<View>, header: unknown) {
    this.issues = rules.checkHeader(header);
    this.events = new EventValidator(rules.events);
    this.marker = this.issues.length === 0 ? rules.marker(header) : undefined;
  }

  /** Validates the next event (its expected seq is its position); `parsed`: fresh from `JSON.parse`. */
  event(event: unknown, parsed = false): void {
    const index = this.count++;
    const view = this.events.checkInto(event, index, parsed, this.issues);
    if (view !== undefined) this.events.apply(view);
    if (this.marker === undefined || !this.marker.concerns(index)) return;
    const marker = view === undefined ? this.marker.event(index, '', undefined, false) : this.marker.event(index, view.type, view.data);
    for (const issue of marker) this.issues.push(issue);
  }

  /** Checks what needs the whole log; call once after the last event. */
  finish(): Issue[] {
    if (this.marker !== undefined) for (const issue of this.marker.finish(this.count)) this.issues.push(issue);
    return this.issues;
  }
}

/** Every issue of `artifact` under `rules`; `[]` when valid. */
export function validateLog<View extends { type: string; data: unknown }>(
  rules: LogRules<View>,
  artifact: { header?: unknown; events: readonly unknown[] },
): Issue[] {
  const validation = new LogValidation(rules, artifact.header);
  for (const event of artifact.events) validation.event(event);
  return validation.finish();
}
