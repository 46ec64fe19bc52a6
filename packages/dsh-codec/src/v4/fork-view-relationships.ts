/**
 * V4's relationships (SPEC §7): the frozen V3 checker run on the private interrupted view, with
 * the issues about a mapped fork closer reworded to name the forked record the user wrote.
 * V5 uses the same rules (reasoning blocks declare nothing).
 */
import type { Issue } from '../shared/issue.js';
import type { RelationshipRules } from '../shared/event-validator.js';
import { V3RelationshipChecker } from '../v3/relationship-checker.js';
import type { V3Event } from '../v3/types.js';
import { forkedWording } from './forked-wording.js';
import { interruptedViewOf } from './interrupted-view.js';

/** The relationship state of one V4 (or V5) log. */
export class ForkViewRelationships implements RelationshipRules<V3Event> {
  private readonly checker = new V3RelationshipChecker();

  checkInto(event: unknown, sink: Issue[]): V3Event {
    const view = interruptedViewOf(event as V3Event);
    const before = sink.length;
    this.checker.checkInto(view, sink);
    if (view !== event)
      for (let at = before; at < sink.length; at++) (sink[at] as Issue).message = forkedWording((sink[at] as Issue).message);
    return view;
  }

  apply(view: V3Event): void {
    this.checker.apply(view);
  }

  viewOf(event: unknown): V3Event {
    return interruptedViewOf(event as V3Event);
  }
}
