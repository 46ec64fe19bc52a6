/**
 * One pass of V4 validation over a log, event by event: shape, then relationships through the
 * V3 checker on the private interrupted view. Shared by `createEventChecker`, `validate(4)` and
 * the decoder, so all three apply exactly the same rules.
 */
import type { Issue } from '../v0/issue.js';
import { V3RelationshipChecker } from '../v3/relationship-checker.js';
import type { V3Event } from '../v3/types.js';
import { checkV4EventShape, v4EventShapeIsValid } from './check-event-shape.js';
import { forkedWording, interruptedViewOf } from './interrupted-view.js';

/** Incremental V4 event validation; `check` is pure, `apply` advances past a checked event. */
export class V4EventValidator {
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
    if (!v4EventShapeIsValid(event, index, parsed)) {
      const shape = checkV4EventShape(event, index, parsed);
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
