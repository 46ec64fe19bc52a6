/**
 * Fork lineage in the header (since V2) and its tie to the events: a fork child inherits
 * `inheritedEventCount` events and its own inherited marker sits right after them. Frozen with V2.
 */
import { headerIssue, relationshipIssue, type Issue } from '../shared/issue.js';

/** The lineage fields of a V2+ header. */
export type ForkLineage = { parentSession?: string; forkCut?: number; inheritedEventCount: number };

/** Issues of the lineage fields among themselves (no events needed). */
export function checkForkLineage(header: ForkLineage): Issue[] {
  const issues: Issue[] = [];
  const { parentSession, forkCut, inheritedEventCount } = header;
  if ((parentSession === undefined) !== (forkCut === undefined)) {
    issues.push(
      headerIssue(
        [parentSession === undefined ? 'parentSession' : 'forkCut'],
        'header: parentSession and forkCut come together (a fork child has both, a root session neither)',
      ),
    );
  }
  if (forkCut !== undefined && inheritedEventCount !== forkCut + 1) {
    issues.push(
      headerIssue(
        ['inheritedEventCount'],
        `header: expected inheritedEventCount ${String(forkCut + 1)} (forkCut + 1), got ${String(inheritedEventCount)}`,
      ),
    );
  }
  if (parentSession === undefined && inheritedEventCount !== 0) {
    issues.push(
      headerIssue(
        ['inheritedEventCount'],
        `header: a session without parentSession inherits nothing: expected inheritedEventCount 0, got ${String(inheritedEventCount)}`,
      ),
    );
  }
  return issues;
}

/**
 * Checks, event by event, that a fork child's events hold its inherited marker at seq
 * `inheritedEventCount`. Call `event` for each shape-valid event, then `finish` once.
 */
export class ForkMarkerCheck {
  private found = false;
  constructor(private readonly header: ForkLineage) {}

  /** Whether `event(index, …)` can report anything: only a fork child's marker position matters. */
  concerns(index: number): boolean {
    return this.header.parentSession !== undefined && index === this.header.inheritedEventCount;
  }

  /**
   * Issues about the event at `index` (only the marker position matters). An event whose shape
   * is already reported invalid (`shapeValid` false) only counts as present.
   */
  event(index: number, type: string, data: unknown, shapeValid = true): Issue[] {
    if (this.header.parentSession === undefined || index !== this.header.inheritedEventCount) return [];
    this.found = true;
    if (!shapeValid) return [];
    const inherited = typeof data === 'object' && data !== null && (data as { inherited?: unknown }).inherited === true;
    if (type === 'session/end-seed' && inherited) return [];
    return [
      relationshipIssue(
        index,
        [],
        `${type} at seq ${String(index)}: a fork child inherits ${String(index)} events, so seq ${String(index)} must be its inherited marker session/end-seed {inherited: true}`,
      ),
    ];
  }

  /** Issues once every event is seen: the marker must exist. */
  finish(eventCount: number): Issue[] {
    if (this.header.parentSession === undefined || this.found) return [];
    const expected = this.header.inheritedEventCount;
    return [
      {
        code: 'INVALID_RELATIONSHIP',
        path: ['header', 'inheritedEventCount'],
        message: `header: a fork child inheriting ${String(expected)} events needs its inherited marker at seq ${String(expected)}, but the log has ${String(eventCount)} events`,
      },
    ];
  }
}
