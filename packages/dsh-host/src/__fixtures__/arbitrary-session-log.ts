/**
 * Generated V4 logs for property tests: standalone events, queued input, closed turns of every
 * reason, manual compactions, and optionally an open turn cut at any point of its body.
 */
import fc from 'fast-check';
import type { JsonValue, SessionEvent, SurfaceOp, TurnEndReason } from 'dsh-codec';

type Segment =
  | { kind: 'title'; title: string }
  | { kind: 'config'; tools: string[] }
  | { kind: 'compaction' }
  | { kind: 'queued' }
  | { kind: 'turn'; steps: number; toolCalls: number; reason: TurnEndReason['kind'] };

// `interrupted` and `forked` come only from the shared closer, never from an append.
const reasons = ['completed', 'cancelled', 'error', 'max-steps'] as const;

const segment: fc.Arbitrary<Segment> = fc.oneof(
  fc.record({ kind: fc.constant('title' as const), title: fc.string({ minLength: 1, maxLength: 8 }) }),
  fc.record({ kind: fc.constant('config' as const), tools: fc.array(fc.constantFrom('echo', 'read_file'), { maxLength: 2 }) }),
  fc.record({ kind: fc.constant('compaction' as const) }),
  fc.record({ kind: fc.constant('queued' as const) }),
  fc.record({
    kind: fc.constant('turn' as const),
    steps: fc.integer({ min: 1, max: 2 }),
    toolCalls: fc.integer({ min: 0, max: 2 }),
    reason: fc.constantFrom(...reasons),
  }),
);

/** Builds the events of a log, appending with contiguous seqs. */
class LogBuilder {
  readonly events: SessionEvent[] = [];
  private turn = 0;
  private inputs = 0;
  private readonly pending: string[] = [];

  add(type: string, data: JsonValue, extra: { surfaceOp?: SurfaceOp; ignorable?: true } = {}): void {
    this.events.push({ seq: this.events.length, type, time: 1_000 + this.events.length, data, ...extra });
  }

  apply(item: Segment): void {
    switch (item.kind) {
      case 'title':
        this.add('session/title', { title: item.title });
        return;
      case 'config':
        this.add('session/config', { tools: item.tools });
        return;
      case 'queued': {
        const inputId = `input-${++this.inputs}`;
        this.pending.push(inputId);
        this.add('input/queued', { inputId, message: { id: `m-${inputId}`, role: 'user', content: [{ type: 'text', text: 'hi' }] } });
        return;
      }
      case 'compaction': {
        const surface = this.events.filter((event) => ['user/message', 'assistant/message', 'tool/result'].includes(event.type));
        const first = surface[0];
        const last = surface[surface.length - 1];
        this.add('compaction/start', {}, { ignorable: true });
        if (first !== undefined && last !== undefined) {
          this.add(
            'user/message',
            { message: { id: `summary-${this.events.length}`, role: 'user', content: [{ type: 'text', text: 'summary' }] } },
            { surfaceOp: { op: 'replace', start: first.seq, end: last.seq } },
          );
        }
        this.add('compaction/end', {}, { ignorable: true });
        return;
      }
      case 'turn':
        for (const [type, data] of this.turnBody(item)) this.add(type, data);
        return;
    }
  }

  /** The events of one whole turn, the last being its `turn/end`. */
  turnBody(item: Extract<Segment, { kind: 'turn' }>): [string, JsonValue][] {
    const turn = ++this.turn;
    const body: [string, JsonValue][] = [['turn/start', { turn }]];
    const inputId = this.pending.shift();
    const message = { id: `u-${turn}`, role: 'user', content: [{ type: 'text', text: 'do it' }] };
    body.push(['user/message', inputId === undefined ? { message } : { message, inputId }]);
    for (let step = 1; step <= item.steps; step++) {
      body.push(['step/start', { turn, step }]);
      const calls = Array.from({ length: item.toolCalls }, (_, index) => `call-${turn}-${step}-${index}`);
      const content = [
        { type: 'text', text: 'ok' },
        ...calls.map((id) => ({ type: 'tool-call', id, name: 'echo', arguments: '{}' })),
      ];
      body.push(['assistant/message', { turn, step, message: { id: `a-${turn}-${step}`, role: 'assistant', content } }]);
      for (const callId of calls) {
        body.push(['tool/call', { turn, step, callId, name: 'echo', arguments: '{}', effect: 'read-only' }]);
        body.push([
          'tool/result',
          { turn, step, message: { id: `r-${callId}`, role: 'tool', callId, content: [{ type: 'text', text: 'done' }], isError: false } },
        ]);
      }
      body.push(['step/end', { turn, step }]);
    }
    const reason: JsonValue =
      item.reason === 'error' ? { kind: 'error', error: { message: 'boom', code: 'MODEL_FAILED' } } : { kind: item.reason };
    body.push(['turn/end', { turn, reason }]);
    return body;
  }
}

/** A V4 log starting with a plain `session/end-seed`; `openTail` decides whether the last turn stays open. */
export function arbitrarySessionLog(options: { openTail?: boolean } = {}): fc.Arbitrary<SessionEvent[]> {
  return fc
    .record({
      segments: fc.array(segment, { maxLength: 12 }),
      open: options.openTail === false ? fc.constant(undefined) : fc.option(fc.nat(), { nil: undefined }),
      seeded: fc.boolean(),
    })
    .map(({ segments, open, seeded }) => {
      const builder = new LogBuilder();
      if (seeded) builder.add('session/end-seed', {});
      for (const item of segments) builder.apply(item);
      if (open !== undefined) {
        const body = builder.turnBody({ kind: 'turn', steps: 2, toolCalls: 2, reason: 'completed' });
        // Everything but the turn/end: a turn left open at any point of its body.
        for (const [type, data] of body.slice(0, 1 + (open % (body.length - 1)))) builder.add(type, data);
      }
      return builder.events;
    });
}
