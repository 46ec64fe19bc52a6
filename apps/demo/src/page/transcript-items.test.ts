import { logEvents, type LogRow } from '@dsh/test-utils';
import { describe, expect, test } from 'vitest';
import { hasOpenTurn, latestTitle, syntheticOf, transcriptItems } from './transcript-items.js';
import type { WireEvent, WireHeader } from './wire.js';

let time = 1000;
const log = (...rows: LogRow[]) => logEvents<WireEvent>(rows, { time: () => time++ });
const user = (text: string) => ({ id: `u-${text}`, role: 'user', content: [{ type: 'text', text }] });
/** A header as the page reads it: only these fields matter to the transcript. */
const headerOf = (fields: Pick<WireHeader, 'id' | 'createdAt' | 'inheritedEventCount'> & Partial<WireHeader>): WireHeader =>
  fields as WireHeader;
const header = headerOf({ id: 's', createdAt: 0, inheritedEventCount: 0 });

describe('transcriptItems', () => {
  test('a workspace checkpoint shows what it follows, its tree, what it skipped and its time; a session note its text', () => {
    const call = { turn: 1, step: 1, callId: 'c1', name: 'write_file', arguments: '{}', effect: 'side-effect' };
    const result = {
      turn: 1,
      step: 1,
      message: { id: 'r1', role: 'tool', callId: 'c1', content: [{ type: 'text', text: 'ok' }], isError: false },
    };
    const events = log(
      ['session/end-seed', {}],
      ['session/note', { kind: 'workspace-moved', text: 'The working directory moved from /a to /b.', from: '/a', to: '/b' }],
      ['turn/start', { turn: 1 }],
      ['workspace/checkpoint', { tree: '4b825dc642cb6eb9a060e54bf8d69288fbee4904', after: 'turn-start', ms: 12 }, { ignorable: true }],
      [
        'assistant/message',
        {
          turn: 1,
          step: 1,
          message: { id: 'a1', role: 'assistant', content: [{ type: 'tool-call', id: 'c1', name: 'write_file', arguments: '{}' }] },
        },
      ],
      ['tool/call', call],
      ['tool/result', result],
      [
        'workspace/checkpoint',
        { tree: 'aaaaaaa1234', after: 'call', callId: 'c1', skipped: [{ path: 'big.bin', reason: 'too-large' }], ms: 3.6 },
        { ignorable: true },
      ],
    );
    expect(transcriptItems(events, header).filter((item) => item.kind === 'checkpoint' || item.kind === 'workspace-note')).toEqual([
      { kind: 'workspace-note', seq: 1, note: 'workspace-moved', text: 'The working directory moved from /a to /b.' },
      { kind: 'checkpoint', seq: 3, after: 'turn-start', tree: '4b825dc642cb6eb9a060e54bf8d69288fbee4904', skipped: 0, ms: 12 },
      { kind: 'checkpoint', seq: 7, after: 'call', tree: 'aaaaaaa1234', callId: 'c1', callName: 'write_file', skipped: 1, ms: 3.6 },
    ]);
  });

  test('a Claude Agent SDK transcript (claude/entry events) shows as its conversation, calls and results', () => {
    const events = log(
      ['session/end-seed', {}],
      ['claude/key', { projectKey: '-work-app', sessionId: 'c1' }, { ignorable: true }],
      ['claude/entry', { type: 'user', uuid: 'u1', message: { role: 'user', content: 'Count the files' } }, { ignorable: true }],
      [
        'claude/entry',
        {
          type: 'assistant',
          uuid: 'a1',
          message: {
            role: 'assistant',
            content: [
              { type: 'text', text: 'Counting.' },
              { type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'ls' } },
            ],
          },
        },
        { ignorable: true },
      ],
      [
        'claude/entry',
        {
          type: 'user',
          uuid: 'r1',
          message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '3', is_error: false }] },
        },
        { ignorable: true },
      ],
      ['claude/entry', { type: 'queue-operation', operation: 'dequeue' }, { ignorable: true }],
    );
    expect(transcriptItems(events, header)).toEqual([
      { kind: 'lifecycle', seq: 0 },
      { kind: 'note', seq: 1, text: 'Claude Agent SDK transcript c1' },
      { kind: 'user', seq: 2, text: 'Count the files' },
      { kind: 'assistant', seq: 3, text: 'Counting.' },
      {
        kind: 'tool',
        seq: 3,
        callId: 'toolu_1',
        name: 'Bash',
        arguments: '{"command":"ls"}',
        result: { seq: 4, text: '3', isError: false },
      },
    ]);
  });

  test('tool calls carry their effect, their tool/call seq and their result', () => {
    const events = log(
      ['turn/start', { turn: 1 }],
      ['user/message', { message: user('go'), inputId: 'i1' }],
      ['step/start', { turn: 1, step: 1 }],
      [
        'assistant/message',
        {
          turn: 1,
          step: 1,
          message: {
            id: 'a',
            role: 'assistant',
            content: [
              { type: 'text', text: 'Reading.' },
              { type: 'tool-call', id: 'c1', name: 'read_file', arguments: '{"path":"x"}' },
            ],
          },
        },
      ],
      ['tool/call', { turn: 1, step: 1, callId: 'c1', name: 'read_file', arguments: '{"path":"x"}', effect: 'read-only' }],
      [
        'tool/result',
        { turn: 1, step: 1, message: { id: 'r', role: 'tool', callId: 'c1', content: [{ type: 'text', text: 'hi' }], isError: false } },
      ],
      ['step/end', { turn: 1, step: 1 }],
      ['turn/end', { turn: 1, reason: { kind: 'completed' } }],
    );
    expect(transcriptItems(events, header)).toEqual([
      { kind: 'turn-start', seq: 0, turn: 1 },
      { kind: 'user', seq: 1, text: 'go', inputId: 'i1' },
      { kind: 'assistant', seq: 3, text: 'Reading.' },
      {
        kind: 'tool',
        seq: 3,
        callId: 'c1',
        name: 'read_file',
        arguments: '{"path":"x"}',
        callSeq: 4,
        effect: 'read-only',
        result: { seq: 5, text: 'hi', isError: false },
      },
      { kind: 'turn-end', seq: 7, turn: 1, reason: 'completed' },
    ]);
  });

  test('synthetic results are recognised by cause and by whether the call started', () => {
    expect(syntheticOf('forked-tool-result-c1-9', 'TOOL_OUTCOME_UNKNOWN')).toEqual({ cause: 'forked', started: true });
    expect(syntheticOf('forked-tool-result-c2-10', 'TOOL_NOT_STARTED')).toEqual({ cause: 'forked', started: false });
    expect(syntheticOf('interrupted-tool-result-c1-9', 'TOOL_OUTCOME_UNKNOWN')).toEqual({ cause: 'interrupted', started: true });
    expect(syntheticOf('interrupted-tool-result-c1-9', 'TOOL_FAILED')).toBeUndefined();
    expect(syntheticOf('result-9', 'TOOL_NOT_STARTED')).toBeUndefined();
  });

  test("the child's own inherited marker names the parent and cut; an ancestor's does not", () => {
    const events = log(
      ['session/end-seed', { inherited: true }],
      ['session/title', { title: 't' }],
      ['session/end-seed', { inherited: true }],
      ['session/end-seed', {}],
    );
    const items = transcriptItems(events, headerOf({ id: 'c', createdAt: 0, inheritedEventCount: 2, parentSession: 'p', forkCut: 1 }));
    expect(items).toEqual([
      { kind: 'fork-marker', seq: 0, own: false },
      { kind: 'note', seq: 1, text: 'Title set to “t”' },
      { kind: 'fork-marker', seq: 2, own: true, parentSession: 'p', forkCut: 1 },
      { kind: 'lifecycle', seq: 3 },
    ]);
  });

  test('queued input is pending until a turn claims it, and inherited queued input is never pending', () => {
    const events = log(
      ['input/queued', { inputId: 'old', message: user('inherited') }],
      ['session/end-seed', { inherited: true }],
      ['input/queued', { inputId: 'i1', message: user('first') }],
      ['input/queued', { inputId: 'i2', message: user('second') }],
      ['turn/start', { turn: 1 }],
      ['user/message', { message: user('first'), inputId: 'i1' }],
    );
    const items = transcriptItems(events, { ...header, inheritedEventCount: 1 });
    expect(items.filter((item) => item.kind === 'pending')).toEqual([{ kind: 'pending', seq: 3, text: 'second', inputId: 'i2' }]);
    expect(hasOpenTurn(events)).toBe(true);
  });

  test('a replacing user/message is a compaction summary naming the replaced seqs', () => {
    const events = log(
      ['compaction/start', { turn: null }, { ignorable: true }],
      ['user/message', { message: user('summary') }, { surfaceOp: { op: 'replace', start: 0, end: 0 } }],
    );
    expect(transcriptItems(events, header)).toEqual([
      { kind: 'note', seq: 0, text: 'Compaction started' },
      { kind: 'summary', seq: 1, text: 'summary', start: 0, end: 0 },
    ]);
  });

  test('turn ends keep their reason and error message; the latest title wins', () => {
    const events = log(
      ['session/title', { title: 'one' }],
      ['turn/start', { turn: 1 }],
      ['turn/end', { turn: 1, reason: { kind: 'error', error: { message: 'boom', code: 'X' } } }],
      ['session/title', { title: 'two' }],
    );
    expect(transcriptItems(events, header)[2]).toEqual({ kind: 'turn-end', seq: 2, turn: 1, reason: 'error', errorMessage: 'boom' });
    expect(latestTitle(events)).toBe('two');
    expect(hasOpenTurn(events)).toBe(false);
  });

  test("a fork child's inherited marker comes before its own closers, and each inherited open call is drawn once", () => {
    const events = log(
      ['turn/start', { turn: 1 }],
      [
        'assistant/message',
        {
          turn: 1,
          step: 1,
          message: { id: 'a', role: 'assistant', content: [{ type: 'tool-call', id: 'c1', name: 'make_dir', arguments: '{}' }] },
        },
      ],
      ['tool/call', { turn: 1, step: 1, callId: 'c1', name: 'make_dir', arguments: '{}', effect: 'idempotent' }],
      ['session/end-seed', { inherited: true }],
      [
        'tool/result',
        {
          turn: 1,
          step: 1,
          message: {
            id: 'forked-tool-result-c1-4',
            role: 'tool',
            callId: 'c1',
            content: [{ type: 'text', text: 'closed' }],
            isError: true,
          },
          error: { code: 'TOOL_OUTCOME_UNKNOWN' },
        },
      ],
      ['turn/end', { turn: 1, reason: { kind: 'forked' } }],
    );
    const items = transcriptItems(events, headerOf({ id: 'c', createdAt: 0, inheritedEventCount: 3, parentSession: 'p', forkCut: 2 }));
    expect(items.map((item) => [item.kind, item.seq])).toEqual([
      ['turn-start', 0],
      ['tool', 1],
      ['fork-marker', 3],
      ['closer', 4],
      ['turn-end', 5],
    ]);
    expect(items[1]).toMatchObject({ kind: 'tool', callSeq: 2, closedBelow: 4 });
    expect(items[1]).not.toHaveProperty('result');
    // The call is drawn once (where it was called); after the marker only its closer, naming it.
    expect(items.filter((item) => item.kind === 'tool')).toHaveLength(1);
    expect(items[3]).toEqual({
      kind: 'closer',
      seq: 4,
      callId: 'c1',
      name: 'make_dir',
      callSeq: 2,
      result: expect.objectContaining({ seq: 4, synthetic: { cause: 'forked', started: true } }),
    });
  });
});
