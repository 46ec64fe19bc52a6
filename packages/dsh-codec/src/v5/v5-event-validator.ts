/**
 * One pass of V5 validation over a log, event by event: the V5 shape, then relationships through
 * the frozen V3 checker on V4's private interrupted view (reasoning blocks declare nothing, so the
 * relationships are V4's). Shared by `createEventChecker`, `validate(5)` and the decoder.
 */
import type { Issue } from '../v0/issue.js';
import { V3RelationshipChecker } from '../v3/relationship-checker.js';
import type { V3Event } from '../v3/types.js';
import { forkedWording, toInterruptedView } from '../v4/interrupted-view.js';
import { checkV5EventShape } from './check-event-shape.js';

/** Incremental V5 event validation; `check` is pure, `apply` advances past a checked event. */
export class V5EventValidator {
  private readonly relationships = new V3RelationshipChecker();

  /**
   * All issues of `event` at `index`; `view` is set when the shape is valid (for `apply`).
   * `parsed`: the event comes straight from `JSON.parse`.
   */
  check(event: unknown, index: number, parsed = false): { issues: Issue[]; view: V3Event | undefined } {
    const issues = checkV5EventShape(event, index, parsed);
    if (issues.length > 0) return { issues, view: undefined };
    const { view, mapped } = toInterruptedView(event as V3Event);
    const related = this.relationships.check(view);
    if (mapped) for (const issue of related) issue.message = forkedWording(issue.message);
    return { issues: related, view };
  }

  /** Advances past an event whose shape was valid (leniently, even if its relationships were not). */
  apply(view: V3Event): void {
    this.relationships.apply(view);
  }
}
