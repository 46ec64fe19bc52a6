/**
 * The V4 validator (current): header, every event's shape and the relationships of SPEC §3.4,
 * reporting every issue with its path and seq.
 */
import type { Issue } from '../v0/issue.js';
import { ForkMarkerCheck } from '../v2/fork-header-check.js';
import type { V4Header } from './types.js';
import { checkV4Header } from './check-header.js';
import { V4EventValidator } from './v4-event-validator.js';

/**
 * A V4 log validated as it is read, event by event: the decoder feeds lines as it parses them,
 * `validateV4` feeds an array. Issues accumulate in `issues`.
 */
export class V4LogValidation {
  readonly issues: Issue[];
  private readonly events = new V4EventValidator();
  private readonly marker: ForkMarkerCheck | undefined;
  private count = 0;

  constructor(header: unknown) {
    this.issues = checkV4Header(header);
    this.marker = this.issues.length === 0 ? new ForkMarkerCheck(header as V4Header) : undefined;
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

/** Every issue of `artifact` as a V4 log; `[]` when valid. */
export function validateV4(artifact: { header?: unknown; events: readonly unknown[] }): Issue[] {
  const validation = new V4LogValidation(artifact.header);
  for (const event of artifact.events) validation.event(event);
  return validation.finish();
}
