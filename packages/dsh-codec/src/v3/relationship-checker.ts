/**
 * The V3 relationship rules (SPEC §3.4), frozen with V3, as an incremental checker over
 * shape-valid V3 events. V4 runs it on a private interrupted view of its fork closers.
 */
import { relationshipIssue, type Issue } from '../shared/issue.js';
import {
  INTERRUPTED_NOT_STARTED_TEXT,
  INTERRUPTED_RESULT_PREFIX,
  INTERRUPTED_STARTED_TEXTS,
  TOOL_NOT_STARTED_ERROR,
  TOOL_OUTCOME_UNKNOWN_ERROR,
} from './interrupted-results.js';
import type { V3Data, V3EventType } from './schemas.js';
import type { V3Event } from './types.js';

type Call = { declaredSeq: number; callSeq: number | undefined; resultSeq: number | undefined };

type Synthetic = 'not-started' | 'outcome-unknown';

const RESERVED_CODES: ReadonlySet<string> = new Set([TOOL_NOT_STARTED_ERROR.code, TOOL_OUTCOME_UNKNOWN_ERROR.code]);
const RESERVED_NAMES: ReadonlySet<string> = new Set([TOOL_NOT_STARTED_ERROR.name, TOOL_OUTCOME_UNKNOWN_ERROR.name]);

const RESULT_CALL_PATH: readonly (string | number)[] = ['data', 'message', 'callId'];

/** Pushes the relationship issue of `event` at `path` (relative to the event). */
function report(sink: Issue[], event: V3Event, path: readonly (string | number)[], message: string): void {
  sink.push(relationshipIssue(event.seq, path as (string | number)[], `${event.type} at seq ${String(event.seq)}: ${message}`));
}

/** Above this many blocks, a message's call ids are tracked in a Set (a hostile message cannot make the check quadratic). */
const SCAN_LIMIT = 32;

/** Whether a tool-call block before `index` of `content` declares `id` (a scan, for the few blocks of a message). */
function declaredBefore(content: readonly { type: string; id?: string }[], index: number, id: string): boolean {
  for (let earlier = 0; earlier < index; earlier++) {
    const block = content[earlier] as { type: string; id?: string };
    if (block.type === 'tool-call' && block.id === id) return true;
  }
  return false;
}

function data<K extends V3EventType>(event: V3Event, _type: K): V3Data<K> {
  return event.data as V3Data<K>;
}

/**
 * Tracks the open turn, the open step and the step's calls. `check` never changes state;
 * `apply` advances it, leniently, so a validator can go on after an invalid event.
 */
export class V3RelationshipChecker {
  private lastTurn = 0;
  private openTurn: { turn: number; seq: number } | undefined;
  private lastStep = 0;
  private openStep: { step: number; seq: number } | undefined;
  private readonly calls = new Map<string, Call>();

  /** Every relationship issue of appending `event` (a shape-valid V3 event at `event.seq`). */
  check(event: V3Event): Issue[] {
    const issues: Issue[] = [];
    this.checkInto(event, issues);
    return issues;
  }

  /**
   * `check`, pushing the issues onto `sink` instead of returning them: nothing is allocated for an
   * event without issues (the open path runs this once per event). Returns how many it pushed.
   */
  checkInto(event: V3Event, sink: Issue[]): number {
    const before = sink.length;
    const seq = event.seq;
    switch (event.type) {
      case 'turn/start': {
        const { turn } = data(event, 'turn/start');
        if (this.openTurn !== undefined)
          report(
            sink,
            event,
            [],
            `expected no open turn, but turn ${String(this.openTurn.turn)} is open since seq ${String(this.openTurn.seq)}`,
          );
        if (turn !== this.lastTurn + 1)
          report(sink, event, ['data', 'turn'], `expected turn ${String(this.lastTurn + 1)} (the next turn number), got ${String(turn)}`);
        break;
      }
      case 'turn/end': {
        const { turn } = data(event, 'turn/end');
        if (this.openTurn === undefined) report(sink, event, [], 'expected an open turn, but no turn is open');
        else if (turn !== this.openTurn.turn)
          report(sink, event, ['data', 'turn'], `expected the open turn ${String(this.openTurn.turn)}, got ${String(turn)}`);
        if (this.openStep !== undefined)
          report(
            sink,
            event,
            [],
            `expected no open step, but step ${String(this.openStep.step)} is open since seq ${String(this.openStep.seq)}`,
          );
        break;
      }
      case 'step/start': {
        const { turn, step } = data(event, 'step/start');
        if (!this.checkTurn(turn, sink, event)) break;
        if (this.openStep !== undefined)
          report(
            sink,
            event,
            [],
            `expected no open step, but step ${String(this.openStep.step)} is open since seq ${String(this.openStep.seq)}`,
          );
        if (step !== this.lastStep + 1)
          report(
            sink,
            event,
            ['data', 'step'],
            `expected step ${String(this.lastStep + 1)} (the next step of turn ${String(turn)}), got ${String(step)}`,
          );
        break;
      }
      case 'step/end': {
        const { turn, step } = data(event, 'step/end');
        this.checkStep(turn, step, sink, event);
        break;
      }
      case 'assistant/message': {
        const { turn, step, message } = data(event, 'assistant/message');
        if (!this.checkStep(turn, step, sink, event)) break;
        const content = message.content;
        const seen = content.length > SCAN_LIMIT ? new Set<string>() : undefined;
        for (let index = 0; index < content.length; index++) {
          const block = content[index] as (typeof content)[number];
          if (block.type !== 'tool-call') continue;
          const twice = seen === undefined ? declaredBefore(content, index, block.id) : seen.has(block.id);
          if (twice || this.calls.has(block.id)) {
            report(
              sink,
              event,
              ['data', 'message', 'content', index, 'id'],
              `call id ${JSON.stringify(block.id)} is declared twice in step ${String(step)}`,
            );
          }
          seen?.add(block.id);
        }
        break;
      }
      case 'tool/call': {
        const { turn, step, callId } = data(event, 'tool/call');
        if (!this.checkStep(turn, step, sink, event)) break;
        const call = this.calls.get(callId);
        if (call === undefined) {
          report(
            sink,
            event,
            ['data', 'callId'],
            `call ${JSON.stringify(callId)} is not declared by a tool-call block of this step's assistant/message`,
          );
        } else if (call.callSeq !== undefined) {
          report(sink, event, ['data', 'callId'], `call ${JSON.stringify(callId)} already has a tool/call at seq ${String(call.callSeq)}`);
        } else if (call.resultSeq !== undefined) {
          report(sink, event, ['data', 'callId'], `call ${JSON.stringify(callId)} was already answered at seq ${String(call.resultSeq)}`);
        }
        break;
      }
      case 'tool/result': {
        const d = data(event, 'tool/result');
        if (!this.checkStep(d.turn, d.step, sink, event)) break;
        const synthetic = this.checkSynthetic(seq, d, sink, event);
        const callId = d.message.callId;
        const call = this.calls.get(callId);
        if (call === undefined) {
          report(sink, event, RESULT_CALL_PATH, `call ${JSON.stringify(callId)} is not declared by this step's assistant/message`);
        } else if (call.resultSeq !== undefined) {
          report(sink, event, RESULT_CALL_PATH, `call ${JSON.stringify(callId)} was already answered at seq ${String(call.resultSeq)}`);
        } else if (synthetic === 'not-started') {
          if (call.callSeq !== undefined) {
            report(
              sink,
              event,
              RESULT_CALL_PATH,
              `a not-started result answers call ${JSON.stringify(callId)}, which has a tool/call at seq ${String(call.callSeq)}`,
            );
          }
        } else if (call.callSeq === undefined) {
          report(
            sink,
            event,
            RESULT_CALL_PATH,
            `call ${JSON.stringify(callId)} has no tool/call; only the canonical not-started result may answer it`,
          );
        }
        break;
      }
      case 'user/message': {
        if (event.surfaceOp === undefined && this.openTurn === undefined) {
          report(sink, event, [], 'expected an open turn: between turns a user/message must replace (surfaceOp)');
        }
        break;
      }
      default:
        // session/*, input/queued and ignorable events (unknown types are refused by the shape
        // check unless ignorable) may stand anywhere.
        break;
    }
    return sink.length - before;
  }

  /** Advances the state past `event`; lenient, so it never throws on an invalid event. */
  apply(event: V3Event): void {
    switch (event.type) {
      case 'turn/start':
        this.openTurn = { turn: data(event, 'turn/start').turn, seq: event.seq };
        this.lastTurn = this.openTurn.turn;
        this.lastStep = 0;
        this.openStep = undefined;
        this.forgetCalls();
        break;
      case 'turn/end':
        this.openTurn = undefined;
        this.openStep = undefined;
        this.forgetCalls();
        break;
      case 'step/start':
        this.openStep = { step: data(event, 'step/start').step, seq: event.seq };
        this.lastStep = this.openStep.step;
        this.forgetCalls();
        break;
      case 'step/end':
        this.openStep = undefined;
        this.forgetCalls();
        break;
      case 'assistant/message':
        if (this.openStep === undefined) break;
        for (const block of data(event, 'assistant/message').message.content) {
          if (block.type === 'tool-call' && !this.calls.has(block.id)) {
            this.calls.set(block.id, { declaredSeq: event.seq, callSeq: undefined, resultSeq: undefined });
          }
        }
        break;
      case 'tool/call': {
        const call = this.calls.get(data(event, 'tool/call').callId);
        if (call !== undefined) call.callSeq ??= event.seq;
        break;
      }
      case 'tool/result': {
        const call = this.calls.get(data(event, 'tool/result').message.callId);
        if (call !== undefined) call.resultSeq ??= event.seq;
        break;
      }
      default:
        break;
    }
  }

  /** Drops the step's calls (cleared in place: one Map for the checker's life). */
  private forgetCalls(): void {
    if (this.calls.size > 0) this.calls.clear();
  }

  private checkTurn(turn: number, sink: Issue[], event: V3Event): boolean {
    if (this.openTurn === undefined) {
      report(sink, event, [], 'expected an open turn, but no turn is open');
      return false;
    }
    if (turn !== this.openTurn.turn) {
      report(sink, event, ['data', 'turn'], `expected the open turn ${String(this.openTurn.turn)}, got ${String(turn)}`);
      return false;
    }
    return true;
  }

  private checkStep(turn: number, step: number, sink: Issue[], event: V3Event): boolean {
    if (!this.checkTurn(turn, sink, event)) return false;
    if (this.openStep === undefined) {
      report(sink, event, [], `expected an open step, but no step of turn ${String(turn)} is open`);
      return false;
    }
    if (step !== this.openStep.step) {
      report(sink, event, ['data', 'step'], `expected the open step ${String(this.openStep.step)}, got ${String(step)}`);
      return false;
    }
    return true;
  }

  /**
   * A result carrying a reserved error is a synthetic crash-recovery result and must be canonical:
   * id, error pair, `isError`, and exactly the canonical wording. Returns what it claims to be.
   */
  private checkSynthetic(seq: number, d: V3Data<'tool/result'>, sink: Issue[], event: V3Event): Synthetic | undefined {
    const error = d.error;
    if (error === undefined || (!RESERVED_CODES.has(error.code) && !RESERVED_NAMES.has(error.name))) return undefined;
    const notStarted =
      error.code === TOOL_NOT_STARTED_ERROR.code ||
      (error.code !== TOOL_OUTCOME_UNKNOWN_ERROR.code && error.name === TOOL_NOT_STARTED_ERROR.name);
    const expected = notStarted ? TOOL_NOT_STARTED_ERROR : TOOL_OUTCOME_UNKNOWN_ERROR;
    const kind = notStarted ? 'not-started' : 'outcome-unknown';
    if (error.name !== expected.name || error.code !== expected.code) {
      report(
        sink,
        event,
        ['data', 'error'],
        `a synthetic ${kind} result's error must be {name: "${expected.name}", code: "${expected.code}"}, got {name: ${JSON.stringify(error.name)}, code: ${JSON.stringify(error.code)}}`,
      );
    }
    const expectedId = `${INTERRUPTED_RESULT_PREFIX}${d.message.callId}-${String(seq)}`;
    if (d.message.id !== expectedId) {
      report(
        sink,
        event,
        ['data', 'message', 'id'],
        `a synthetic ${kind} result's id must be ${JSON.stringify(expectedId)} (interrupted-tool-result-<callId>-<seq>), got ${JSON.stringify(d.message.id)}`,
      );
    }
    if (!d.message.isError)
      report(sink, event, ['data', 'message', 'isError'], `a synthetic ${kind} result must have isError true, got false`);
    const block = d.message.content[0];
    const text = d.message.content.length === 1 && block?.type === 'text' ? block.text : undefined;
    const canonical = notStarted ? text === INTERRUPTED_NOT_STARTED_TEXT : text !== undefined && INTERRUPTED_STARTED_TEXTS.has(text);
    if (!canonical) {
      report(
        sink,
        event,
        ['data', 'message', 'content'],
        `a synthetic ${kind} result must hold exactly one text block with the canonical interrupted ${kind} wording; its content differs`,
      );
    }
    return kind;
  }
}
