/**
 * V6's relationships: V4's (the frozen V3 checker on the interrupted view, `v4/fork-view-relationships.ts`)
 * on V6's closer view (`workspace-view.ts`), plus one rule of V6's own: a `session/note` stands
 * between turns, never inside one (the model reads it as a user message at its place).
 */
import type { RelationshipRules } from '../shared/event-validator.js';
import { relationshipIssue, type Issue } from '../shared/issue.js';
import type { CoreEventDataMap } from '../types.js';
import type { V3Event } from '../v3/types.js';
import { ForkViewRelationships } from '../v4/fork-view-relationships.js';
import { workspaceViewOf } from './workspace-view.js';

/** The relationship state of one V6 log. */
export class WorkspaceRelationships implements RelationshipRules<V3Event> {
  private readonly inner = new ForkViewRelationships();
  private openTurn: { turn: number; seq: number } | undefined;

  checkInto(event: unknown, sink: Issue[]): V3Event {
    const written = event as V3Event;
    if (written.type === 'session/note' && this.openTurn !== undefined) {
      sink.push(
        relationshipIssue(
          written.seq,
          [],
          `session/note at seq ${String(written.seq)}: expected no open turn (a note stands between turns), but turn ${String(this.openTurn.turn)} is open since seq ${String(this.openTurn.seq)}`,
        ),
      );
    }
    return this.inner.checkInto(workspaceViewOf(written), sink);
  }

  apply(view: V3Event): void {
    if (view.type === 'turn/start') this.openTurn = { turn: (view.data as CoreEventDataMap['turn/start']).turn, seq: view.seq };
    else if (view.type === 'turn/end') this.openTurn = undefined;
    this.inner.apply(view);
  }

  viewOf(event: unknown): V3Event {
    return this.inner.viewOf(workspaceViewOf(event as V3Event));
  }
}
