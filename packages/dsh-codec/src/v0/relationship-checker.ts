/**
 * Turn, step and call relationships of V0–V2 logs, frozen with V0. Each version maps its events
 * to a `RelationshipView`; there are no synthetic results before V3, so every result answers a
 * `tool/call` of its step.
 */
import { relationshipIssue, type Issue } from '../shared/issue.js';

type Path = (string | number)[];

/** What the relationship rules need of one event. */
export type RelationshipView =
  | { kind: 'anywhere' }
  | { kind: 'in-turn' }
  | { kind: 'turn/start' | 'turn/end'; turn: number }
  | { kind: 'step/start' | 'step/end'; turn: number; step: number }
  | { kind: 'assistant'; turn: number; step: number; calls: { id: string; path: Path }[] }
  | { kind: 'call'; turn: number; step: number; callId: string; path: Path }
  | { kind: 'result'; turn: number; step: number; callId: string; path: Path };

type Call = { callSeq: number | undefined; resultSeq: number | undefined };

/** Above this many calls in one message, repeated call ids are found with a Set. */
const SCAN_LIMIT = 32;

/** Whether one of `calls[0..index)` has `id`. */
function declaredBefore(calls: readonly { id: string }[], index: number, id: string): boolean {
  for (let earlier = 0; earlier < index; earlier++) if ((calls[earlier] as { id: string }).id === id) return true;
  return false;
}

/** Where an event's relationship issues go: the list, and the event's type and seq for the message. */
type Site = { sink: Issue[]; type: string; seq: number };

/** Pushes a relationship issue of the event at `at`, at `path` (relative to the event). */
function report(at: Site, path: Path, message: string): void {
  at.sink.push(relationshipIssue(at.seq, path, `${at.type} at seq ${String(at.seq)}: ${message}`));
}

/** Incremental checker: `check` is pure, `apply` advances (leniently, past invalid events too). */
export class V0RelationshipChecker {
  private lastTurn = 0;
  private openTurn: { turn: number; seq: number } | undefined;
  private lastStep = 0;
  private openStep: { step: number; seq: number } | undefined;
  private calls = new Map<string, Call>();

  /** Every relationship issue of `view`, the event `type` at `seq`. */
  check(view: RelationshipView, type: string, seq: number): Issue[] {
    const issues: Issue[] = [];
    this.checkInto(view, type, seq, issues);
    return issues;
  }

  /** `check`, pushing the issues onto `sink`: nothing is allocated for an event without issues. */
  checkInto(view: RelationshipView, type: string, seq: number, sink: Issue[]): void {
    const at: Site = { sink, type, seq };
    switch (view.kind) {
      case 'anywhere':
        break;
      case 'in-turn':
        if (this.openTurn === undefined) report(at, [], 'expected an open turn, but no turn is open');
        break;
      case 'turn/start':
        if (this.openTurn !== undefined)
          report(at, [], `expected no open turn, but turn ${String(this.openTurn.turn)} is open since seq ${String(this.openTurn.seq)}`);
        if (view.turn !== this.lastTurn + 1)
          report(at, ['data', 'turn'], `expected turn ${String(this.lastTurn + 1)} (the next turn number), got ${String(view.turn)}`);
        break;
      case 'turn/end':
        if (this.openTurn === undefined) report(at, [], 'expected an open turn, but no turn is open');
        else if (view.turn !== this.openTurn.turn)
          report(at, ['data', 'turn'], `expected the open turn ${String(this.openTurn.turn)}, got ${String(view.turn)}`);
        if (this.openStep !== undefined)
          report(at, [], `expected no open step, but step ${String(this.openStep.step)} is open since seq ${String(this.openStep.seq)}`);
        break;
      case 'step/start':
        if (!this.inTurn(view.turn, at)) break;
        if (this.openStep !== undefined)
          report(at, [], `expected no open step, but step ${String(this.openStep.step)} is open since seq ${String(this.openStep.seq)}`);
        if (view.step !== this.lastStep + 1)
          report(
            at,
            ['data', 'step'],
            `expected step ${String(this.lastStep + 1)} (the next step of turn ${String(view.turn)}), got ${String(view.step)}`,
          );
        break;
      case 'step/end':
        this.inStep(view.turn, view.step, at);
        break;
      case 'assistant': {
        if (!this.inStep(view.turn, view.step, at)) break;
        const { calls } = view;
        // A scan for the few calls of a message; a Set once there are many (never quadratic).
        const seen = calls.length > SCAN_LIMIT ? new Set<string>() : undefined;
        for (let index = 0; index < calls.length; index++) {
          const call = calls[index] as { id: string; path: Path };
          const twice = seen === undefined ? declaredBefore(calls, index, call.id) : seen.has(call.id);
          if (twice || this.calls.has(call.id))
            report(at, call.path, `call id ${JSON.stringify(call.id)} is declared twice in step ${String(view.step)}`);
          seen?.add(call.id);
        }
        break;
      }
      case 'call': {
        if (!this.inStep(view.turn, view.step, at)) break;
        const call = this.calls.get(view.callId);
        if (call === undefined)
          report(at, view.path, `call ${JSON.stringify(view.callId)} is not declared by this step's assistant/message`);
        else if (call.callSeq !== undefined)
          report(at, view.path, `call ${JSON.stringify(view.callId)} already has a tool/call at seq ${String(call.callSeq)}`);
        break;
      }
      case 'result': {
        if (!this.inStep(view.turn, view.step, at)) break;
        const call = this.calls.get(view.callId);
        if (call?.callSeq === undefined) report(at, view.path, `call ${JSON.stringify(view.callId)} has no tool/call in this step`);
        else if (call.resultSeq !== undefined)
          report(at, view.path, `call ${JSON.stringify(view.callId)} was already answered at seq ${String(call.resultSeq)}`);
        break;
      }
    }
  }

  /** Advances the state past `view` at `seq`. */
  apply(view: RelationshipView, seq: number): void {
    switch (view.kind) {
      case 'turn/start':
        this.openTurn = { turn: view.turn, seq };
        this.lastTurn = view.turn;
        this.lastStep = 0;
        this.openStep = undefined;
        this.calls = new Map();
        break;
      case 'turn/end':
        this.openTurn = undefined;
        this.openStep = undefined;
        this.calls = new Map();
        break;
      case 'step/start':
        this.openStep = { step: view.step, seq };
        this.lastStep = view.step;
        this.calls = new Map();
        break;
      case 'step/end':
        this.openStep = undefined;
        this.calls = new Map();
        break;
      case 'assistant':
        if (this.openStep === undefined) break;
        for (const call of view.calls) if (!this.calls.has(call.id)) this.calls.set(call.id, { callSeq: undefined, resultSeq: undefined });
        break;
      case 'call': {
        const call = this.calls.get(view.callId);
        if (call !== undefined) call.callSeq ??= seq;
        break;
      }
      case 'result': {
        const call = this.calls.get(view.callId);
        if (call !== undefined) call.resultSeq ??= seq;
        break;
      }
      default:
        break;
    }
  }

  private inTurn(turn: number, at: Site): boolean {
    if (this.openTurn === undefined) {
      report(at, [], 'expected an open turn, but no turn is open');
      return false;
    }
    if (turn !== this.openTurn.turn) {
      report(at, ['data', 'turn'], `expected the open turn ${String(this.openTurn.turn)}, got ${String(turn)}`);
      return false;
    }
    return true;
  }

  private inStep(turn: number, step: number, at: Site): boolean {
    if (!this.inTurn(turn, at)) return false;
    if (this.openStep === undefined) {
      report(at, [], `expected an open step, but no step of turn ${String(turn)} is open`);
      return false;
    }
    if (step !== this.openStep.step) {
      report(at, ['data', 'step'], `expected the open step ${String(this.openStep.step)}, got ${String(step)}`);
      return false;
    }
    return true;
  }
}
