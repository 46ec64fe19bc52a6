import { logEvents, type LogRow } from '@dsh/test-utils';
import { describe, expect, it } from 'vitest';
import { syntheticResultError, syntheticResultMessage, validate, type ValidationIssue } from 'dsh-codec';

type Raw = Record<string, unknown>;
const events = (...rows: LogRow[]) => logEvents<Raw>(rows, { time: (seq) => 1000 + seq });
const v1Header = { format: 'dsh-session', version: 1, id: 's', createdAt: 0 };
const header = (version: 2 | 3 | 4, extra: Raw = {}) => ({
  format: 'dsh-session',
  version,
  id: 's',
  createdAt: 0,
  inheritedEventCount: 0,
  ...extra,
});
const seqs = (issues: ValidationIssue[]) => [...new Set(issues.map((issue) => issue.seq))];
const msg = (id: string, role: string, text: string, extra: Raw = {}) => ({
  id,
  role,
  content: text === '' ? [] : [{ type: 'text', text }],
  ...extra,
});

describe('validate', () => {
  it('reports every issue, each with its code, path and seq', () => {
    const issues = validate(4, {
      header: header(4),
      events: [
        { seq: 0, type: 'turn/start', time: 1, data: { turn: 2 } },
        { seq: 5, type: 'session/title', time: 1, data: { title: 'x' } },
        { seq: 2, type: 'step/start', time: 1.5, data: { turn: 2, step: 1 } },
        { seq: 3, type: 'mystery', time: 1, data: {} },
      ],
    });
    expect(issues).toEqual([
      expect.objectContaining({ code: 'INVALID_RELATIONSHIP', seq: 0, path: ['events', 0, 'data', 'turn'] }),
      expect.objectContaining({ code: 'INVALID_EVENT', seq: 1, path: ['events', 1, 'seq'] }),
      expect.objectContaining({ code: 'INVALID_EVENT', seq: 2, path: ['events', 2, 'time'] }),
      expect.objectContaining({ code: 'INVALID_EVENT', seq: 3, path: ['events', 3, 'type'] }),
    ]);
    for (const issue of issues) expect(issue.message).toMatch(/seq \d/);
  });

  it('never throws on artifacts that are not artifacts', () => {
    expect(validate(4, null as never)[0]?.code).toBe('INVALID_EVENT');
    expect(validate(9 as never, { events: [] })[0]?.path).toEqual(['header', 'version']);
    expect(validate(4, { header: 'nope', events: [] })[0]?.code).toBe('INVALID_HEADER');
    expect(validate(2, { events: [] })[0]?.code).toBe('INVALID_HEADER');
  });

  describe('V0 (frozen)', () => {
    const turn = events(
      ['turn/start', { turn: 1 }],
      ['user/message', { text: 'hi' }],
      ['step/start', { turn: 1, step: 1 }],
      ['assistant/message', { turn: 1, step: 1, text: '', toolCalls: [{ id: 'c', name: 'read', arguments: '{}' }] }],
      ['tool/call', { turn: 1, step: 1, callId: 'c', name: 'read', arguments: '{}' }],
      ['tool/result', { turn: 1, step: 1, callId: 'c', output: 'ok', isError: false }],
      ['step/end', { turn: 1, step: 1 }],
      ['turn/end', { turn: 1, reason: 'aborted' }],
    );

    it('accepts a V0 log and refuses a header', () => {
      expect(validate(0, { events: turn })).toEqual([]);
      expect(validate(0, { header: v1Header, events: turn })).toMatchObject([{ code: 'INVALID_HEADER' }]);
    });

    it('refuses later versions’ shapes and envelope keys', () => {
      const structured = turn.map((event) =>
        event.type === 'user/message' ? { ...event, data: { message: msg('m', 'user', 'hi') } } : event,
      );
      expect(seqs(validate(0, { events: structured }))).toEqual([1]);
      const objectReason = turn.map((event) =>
        event.type === 'turn/end' ? { ...event, data: { turn: 1, reason: { kind: 'completed' } } } : event,
      );
      expect(seqs(validate(0, { events: objectReason }))).toEqual([7]);
      const ignorable = [...turn, { seq: 8, type: 'session/title', time: 1, data: { title: 't' }, ignorable: true }];
      expect(validate(0, { events: ignorable }).map((issue) => issue.path)).toEqual([['events', 8, 'ignorable']]);
    });

    it('refuses a result without its tool/call, and a call the assistant did not list', () => {
      const noCall = turn.filter((event) => event.type !== 'tool/call').map((event, seq) => ({ ...event, seq }));
      expect(validate(0, { events: noCall })).toMatchObject([
        { code: 'INVALID_RELATIONSHIP', seq: 4, path: ['events', 4, 'data', 'callId'] },
      ]);
      const undeclared = turn.map((event) =>
        event.type === 'assistant/message' ? { ...event, data: { turn: 1, step: 1, text: 'x', toolCalls: [] } } : event,
      );
      expect(validate(0, { events: undeclared }).map((issue) => issue.seq)).toEqual([4, 5]);
    });
  });

  describe('call ids declared twice in one step', () => {
    const v0Step = (toolCalls: { id: string }[], earlier: { id: string }[] = []) =>
      events(
        ['turn/start', { turn: 1 }],
        ['user/message', { text: 'hi' }],
        ['step/start', { turn: 1, step: 1 }],
        ['assistant/message', { turn: 1, step: 1, text: '', toolCalls: earlier.map(({ id }) => ({ id, name: 'read', arguments: '{}' })) }],
        [
          'assistant/message',
          { turn: 1, step: 1, text: '', toolCalls: toolCalls.map(({ id }) => ({ id, name: 'read', arguments: '{}' })) },
        ],
      );
    const v5Step = (ids: string[], earlier: string[] = []) => ({
      header: { format: 'dsh-session', version: 5, id: 's', createdAt: 0, inheritedEventCount: 0 },
      events: events(
        ['turn/start', { turn: 1 }],
        ['user/message', { message: msg('u', 'user', 'hi') }],
        ['step/start', { turn: 1, step: 1 }],
        [
          'assistant/message',
          {
            turn: 1,
            step: 1,
            message: {
              id: 'a0',
              role: 'assistant',
              content: earlier.map((id) => ({ type: 'tool-call', id, name: 'read', arguments: '{}' })),
            },
          },
        ],
        [
          'assistant/message',
          {
            turn: 1,
            step: 1,
            message: {
              id: 'a1',
              role: 'assistant',
              content: [{ type: 'text', text: 't' }, ...ids.map((id) => ({ type: 'tool-call', id, name: 'read', arguments: '{}' }))],
            },
          },
        ],
      ),
    });
    const many = (count: number) => Array.from({ length: count }, (_, index) => `c${String(index)}`);

    it('are refused at each repeat, in a message with a few calls or with many (V0)', () => {
      expect(validate(0, { events: v0Step([{ id: 'a' }, { id: 'b' }, { id: 'a' }]) }).map((issue) => issue.path)).toEqual([
        ['events', 4, 'data', 'toolCalls', 2, 'id'],
      ]);
      expect(validate(0, { events: v0Step([{ id: 'b' }], [{ id: 'b' }]) }).map((issue) => issue.path)).toEqual([
        ['events', 4, 'data', 'toolCalls', 0, 'id'],
      ]);
      const repeated = [...many(40), 'c3', 'c39'].map((id) => ({ id }));
      expect(validate(0, { events: v0Step(repeated) }).map((issue) => issue.path[4])).toEqual([40, 41]);
      expect(validate(0, { events: v0Step(many(40).map((id) => ({ id }))) })).toEqual([]);
    });

    it('are refused at each repeat, in a message with a few calls or with many (V5)', () => {
      const paths = (ids: string[], earlier?: string[]) => validate(5, v5Step(ids, earlier)).map((issue) => issue.path.join('.'));
      expect(paths(['a', 'b', 'a'])).toEqual(['events.4.data.message.content.3.id']);
      expect(paths(['b'], ['b'])).toEqual(['events.4.data.message.content.1.id']);
      expect(paths([...many(40), 'c3', 'c39'])).toEqual(['events.4.data.message.content.41.id', 'events.4.data.message.content.42.id']);
      expect(paths(many(40))).toEqual([]);
    });
  });

  describe('V1 (frozen)', () => {
    const turn = events(
      ['turn/start', { turn: 1 }],
      ['user/message', { message: msg('u', 'user', 'hi') }],
      ['turn/end', { turn: 1, reason: { kind: 'aborted', message: 'stopped' } }],
    );

    it('accepts V1 reasons with messages', () => {
      expect(validate(1, { header: v1Header, events: turn })).toEqual([]);
    });

    it('refuses later additions: lineage in the header, titles, effects, cancelled', () => {
      expect(validate(1, { header: { ...v1Header, inheritedEventCount: 0 }, events: turn })[0]?.code).toBe('INVALID_HEADER');
      expect(
        seqs(validate(1, { header: v1Header, events: [...turn, { seq: 3, type: 'session/title', time: 1, data: { title: 't' } }] })),
      ).toEqual([3]);
      const cancelled = turn.map((event) =>
        event.type === 'turn/end' ? { ...event, data: { turn: 1, reason: { kind: 'cancelled' } } } : event,
      );
      expect(seqs(validate(1, { header: v1Header, events: cancelled }))).toEqual([2]);
    });
  });

  describe('V2 (frozen)', () => {
    it('accepts session events between turns', () => {
      const log = events(
        ['session/title', { title: 't' }],
        ['session/end-seed', {}],
        ['turn/start', { turn: 1 }],
        ['turn/end', { turn: 1, reason: { kind: 'completed' } }],
        ['session/title', { title: 'u' }],
      );
      expect(validate(2, { header: header(2), events: log })).toEqual([]);
    });

    it('checks fork lineage: fields together, counts agreeing, the inherited marker in place', () => {
      const seed = events(['session/title', { title: 't' }], ['session/end-seed', { inherited: true }]);
      expect(validate(2, { header: header(2, { parentSession: 'p', forkCut: 0, inheritedEventCount: 1 }), events: seed })).toEqual([]);
      expect(validate(2, { header: header(2, { parentSession: 'p', inheritedEventCount: 1 }), events: seed })[0]?.path).toEqual([
        'header',
        'forkCut',
      ]);
      expect(validate(2, { header: header(2, { parentSession: 'p', forkCut: 0, inheritedEventCount: 2 }), events: seed })[0]?.path).toEqual(
        ['header', 'inheritedEventCount'],
      );
      expect(validate(2, { header: header(2, { inheritedEventCount: 1 }), events: seed })[0]?.path).toEqual([
        'header',
        'inheritedEventCount',
      ]);
      expect(validate(2, { header: header(2, { parentSession: 'p', forkCut: 1, inheritedEventCount: 2 }), events: seed })).toMatchObject([
        { code: 'INVALID_RELATIONSHIP' },
      ]);
      const misplaced = events(['session/end-seed', { inherited: true }], ['session/title', { title: 't' }]);
      expect(
        validate(2, { header: header(2, { parentSession: 'p', forkCut: 0, inheritedEventCount: 1 }), events: misplaced }),
      ).toMatchObject([{ code: 'INVALID_RELATIONSHIP', seq: 1 }]);
    });

    it('refuses V3 additions: queued input, surfaceOp, ignorable events', () => {
      const queued = events(['input/queued', { inputId: 'i', message: msg('u', 'user', 'x') }]);
      expect(seqs(validate(2, { header: header(2), events: queued }))).toEqual([0]);
      expect(validate(2, { header: header(2), events: [{ seq: 0, type: 'plugin/x', time: 1, data: {}, ignorable: true }] })).not.toEqual(
        [],
      );
    });
  });

  describe('V3 (frozen)', () => {
    const step = events(
      ['turn/start', { turn: 1 }],
      ['step/start', { turn: 1, step: 1 }],
      [
        'assistant/message',
        {
          turn: 1,
          step: 1,
          message: { id: 'a', role: 'assistant', content: [{ type: 'tool-call', id: 'c1', name: 'read', arguments: '{}' }] },
        },
      ],
    );
    const result = (cause: 'interrupted' | 'forked') => ({
      seq: 3,
      type: 'tool/result',
      time: 1,
      data: {
        turn: 1,
        step: 1,
        message: syntheticResultMessage(cause, { callId: 'c1', started: false }, 3),
        error: syntheticResultError(false),
      },
    });
    const close = (kind: string) => [
      { seq: 4, type: 'step/end', time: 1, data: { turn: 1, step: 1 } },
      { seq: 5, type: 'turn/end', time: 1, data: { turn: 1, reason: { kind } } },
    ];

    it('admits the canonical interrupted not-started result without a tool/call', () => {
      expect(validate(3, { header: header(3), events: [...step, result('interrupted'), ...close('interrupted')] })).toEqual([]);
    });

    it('rejects forked results and the forked reason, which V4 admits', () => {
      const forked = [...step, result('forked'), ...close('forked')];
      expect(seqs(validate(3, { header: header(3), events: forked }))).toEqual(expect.arrayContaining([3, 5]));
      expect(validate(4, { header: header(4), events: forked })).toEqual([]);
    });

    it('refuses an interrupted result whose wording differs from the canonical one', () => {
      const altered = result('interrupted');
      altered.data.message = { ...altered.data.message, content: [{ type: 'text', text: 'It did not run.' }] };
      expect(validate(3, { header: header(3), events: [...step, altered] })).toMatchObject([
        { seq: 3, path: ['events', 3, 'data', 'message', 'content'] },
      ]);
    });
  });
});
