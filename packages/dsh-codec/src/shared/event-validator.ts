/**
 * One pass of event validation over a log, event by event, for any version that checks a shape
 * and then relationships: the version folder supplies both (`EventRules`), this class only runs
 * them in order and keeps the open path allocation-free. Shared by `createEventChecker`,
 * `validate(n)` and the decoder, so all three apply exactly the same rules.
 */
import type { Issue } from './issue.js';

/** The relationship state of one log: checks a shape-valid event, then advances past it. */
export interface RelationshipRules<View> {
  /** Pushes the relationship issues of `event` (its shape is valid) onto `sink`; returns what `apply` takes. */
  checkInto(event: unknown, sink: Issue[]): View;
  /** Advances past an event whose shape was valid (leniently, even if its relationships were not). */
  apply(view: View): void;
  /** The view `apply` takes for an event already validated at this position. */
  viewOf(event: unknown): View;
}

/** What a version folder configures: its shape check (with its allocation-free fast path) and its relationships. */
export interface EventRules<View> {
  /** True only when `checkShape` certainly returns no issue; false means "ask `checkShape`". */
  shapeIsValid(event: unknown, index: number, parsed: boolean): boolean;
  /** Every shape issue of `event` as the event at `index` (no relationships). */
  checkShape(event: unknown, index: number, parsed: boolean): Issue[];
  /** A fresh relationship state for one log. */
  relationships(): RelationshipRules<View>;
}

/** Incremental validation of one log's events; `check` is pure, `apply` advances past a checked event. */
export class EventValidator<View> {
  private readonly relationships: RelationshipRules<View>;

  constructor(private readonly rules: EventRules<View>) {
    this.relationships = rules.relationships();
  }

  /**
   * All issues of `event` at `index`; `view` is set when the shape is valid (for `apply`).
   * `parsed`: the event comes straight from `JSON.parse`.
   */
  check(event: unknown, index: number, parsed = false): { issues: Issue[]; view: View | undefined } {
    const issues: Issue[] = [];
    const view = this.checkInto(event, index, parsed, issues);
    return { issues, view };
  }

  /**
   * `check`, pushing the issues onto `sink` and returning the view (`undefined` when the shape is
   * invalid): nothing is allocated for a sound event (the open path).
   */
  checkInto(event: unknown, index: number, parsed: boolean, sink: Issue[]): View | undefined {
    if (!this.rules.shapeIsValid(event, index, parsed)) {
      const shape = this.rules.checkShape(event, index, parsed);
      if (shape.length > 0) {
        for (const issue of shape) sink.push(issue);
        return undefined;
      }
    }
    return this.relationships.checkInto(event, sink);
  }

  /** Advances past an event whose shape was valid (leniently, even if its relationships were not). */
  apply(view: View): void {
    this.relationships.apply(view);
  }

  /** Advances past an event already validated at this position, without checking it again. */
  applyTrusted(event: unknown): void {
    this.relationships.apply(this.relationships.viewOf(event));
  }
}
