/**
 * One pass of V5 validation over a log, event by event: the V5 shape, then relationships through
 * the frozen V3 checker on V4's private interrupted view (reasoning blocks declare nothing, so the
 * relationships are V4's). Shared by `createEventChecker`, `validate(5)` and the decoder.
 */
import type { Issue } from '../v0/issue.js';
import { V3RelationshipChecker } from '../v3/relationship-checker.js';
import type { V3Event } from '../v3/types.js';
import { forkedWording, interruptedViewOf } from '../v4/interrupted-view.js';
import { checkV5EventShape, v5EventShapeIsValid } from './check-event-shape.js';

/** Incremental V5 event validation; `check` is pure, `apply` advances past a checked event. */
export class V5EventValidator {
  private readonly relationships = new V3RelationshipChecker();

  /**
   * All issues of `event` at `index`; `view` is set when the shape is valid (for `apply`).
   * `parsed`: the event comes straight from `JSON.parse`.
   */
  check(event: unknown, index: number, parsed = false): { issues: Issue[]; view: V3Event | undefined } {
    const issues: Issue[] = [];
    const view = this.checkInto(event, index, parsed, issues);
    return { issues, view };
  }

  /**
   * `check`, pushing the issues onto `sink` and returning the view (`undefined` when the shape is
   * invalid): nothing is allocated for a sound event that is not a fork closer (the open path).
   */
  checkInto(event: unknown, index: number, parsed: boolean, sink: Issue[]): V3Event | undefined {
    if (!v5EventShapeIsValid(event, index, parsed)) {
      const shape = checkV5EventShape(event, index, parsed);
      if (shape.length > 0) {
        for (const issue of shape) sink.push(issue);
        return undefined;
      }
    }
    const view = interruptedViewOf(event as V3Event);
    const before = sink.length;
    this.relationships.checkInto(view, sink);
    if (view !== event) for (let at = before; at < sink.length; at++) (sink[at] as Issue).message = forkedWording((sink[at] as Issue).message);
    return view;
  }

  /** Advances past an event whose shape was valid (leniently, even if its relationships were not). */
  apply(view: V3Event): void {
    this.relationships.apply(view);
  }
}
