import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { syntheticResultError, syntheticResultId, syntheticResultMessage, validate } from 'dsh-codec';
import type { Issue } from '../shared/issue.js';
import { V3RelationshipChecker } from '../v3/relationship-checker.js';
import type { V3Event } from '../v3/types.js';
// Internal: the rewording has no public entry of its own; its outputs are the validator's messages.
import { FORKED_CAUSE, INTERRUPTED_CAUSE, forkedWording } from './forked-wording.js';
import { interruptedViewOf } from './interrupted-view.js';

type Raw = Record<string, unknown>;
type Data = Raw & { message: Raw };
const header = (version: 4 | 5) => ({ format: 'dsh-session', version, id: 's', createdAt: 0, inheritedEventCount: 0 });
const events = (...items: [string, unknown][]): V3Event[] => items.map(([type, data], seq) => ({ seq, type, time: 1, data }));
const open: [string, unknown][] = [
  ['turn/start', { turn: 1 }],
  ['step/start', { turn: 1, step: 1 }],
];
const declare = (id: string): [string, unknown] => [
  'assistant/message',
  { turn: 1, step: 1, message: { id: 'a', role: 'assistant', content: [{ type: 'tool-call', id, name: 't', arguments: '{}' }] } },
];
const started: [string, unknown] = ['tool/call', { turn: 1, step: 1, callId: 'c1', name: 't', arguments: '{}', effect: 'unknown' }];
/** The canonical forked closer result for `callId` at `seq`, then `edit`ed. */
function closer(seq: number, isStarted: boolean, edit: (data: Data) => void = () => {}, callId = 'c1'): [string, unknown] {
  const message = syntheticResultMessage('forked', { callId, started: isStarted }, seq) as unknown as Raw;
  const data: Data = { turn: 1, step: 1, message, error: syntheticResultError(isStarted) };
  edit(data);
  return ['tool/result', data];
}

/**
 * Every message the V3 checker can say about a mapped fork closer, each in the log that provokes it,
 * and its forked wording as V4 (and V5) report it.
 */
const CASES: readonly { name: string; log: V3Event[]; messages: string[] }[] = [
  {
    name: 'a non-canonical id',
    log: events(
      ...open,
      declare('c1'),
      closer(3, false, (d) => void (d.message.id = 'forked-tool-result-c1-9')),
    ),
    messages: [
      `tool/result at seq 3: a synthetic not-started result's id must be "forked-tool-result-c1-3" (forked-tool-result-<callId>-<seq>), got "forked-tool-result-c1-9"`,
    ],
  },
  {
    name: 'isError false',
    log: events(
      ...open,
      declare('c1'),
      closer(3, false, (d) => void (d.message.isError = false)),
    ),
    messages: ['tool/result at seq 3: a synthetic not-started result must have isError true, got false'],
  },
  {
    name: 'other text',
    log: events(
      ...open,
      declare('c1'),
      closer(3, false, (d) => void (d.message.content = [{ type: 'text', text: 'hi' }])),
    ),
    messages: [
      'tool/result at seq 3: a synthetic not-started result must hold exactly one text block with the canonical forked not-started wording; its content differs',
    ],
  },
  {
    name: 'a mismatched error pair',
    log: events(
      ...open,
      declare('c1'),
      started,
      closer(4, true, (d) => void (d.error = { name: 'ToolNotStartedError', code: 'TOOL_OUTCOME_UNKNOWN' })),
    ),
    messages: [
      `tool/result at seq 4: a synthetic outcome-unknown result's error must be {name: "ToolOutcomeUnknownError", code: "TOOL_OUTCOME_UNKNOWN"}, got {name: "ToolNotStartedError", code: "TOOL_OUTCOME_UNKNOWN"}`,
    ],
  },
  {
    name: 'an undeclared call',
    log: events(
      ...open,
      declare('c1'),
      closer(3, false, () => {}, 'zz'),
    ),
    messages: [`tool/result at seq 3: call "zz" is not declared by this step's assistant/message`],
  },
  {
    name: 'a not-started result for a started call',
    log: events(...open, declare('c1'), started, closer(4, false)),
    messages: ['tool/result at seq 4: a not-started result answers call "c1", which has a tool/call at seq 3'],
  },
  {
    name: 'an outcome-unknown result without a tool/call',
    log: events(...open, declare('c1'), closer(3, true)),
    messages: ['tool/result at seq 3: call "c1" has no tool/call; only the canonical not-started result may answer it'],
  },
  {
    name: 'a call answered twice',
    log: events(...open, declare('c1'), closer(3, false), closer(4, false)),
    messages: ['tool/result at seq 4: call "c1" was already answered at seq 3'],
  },
  {
    name: 'no open step',
    log: events(...open, declare('c1'), ['step/end', { turn: 1, step: 1 }], closer(4, false)),
    messages: ['tool/result at seq 4: expected an open step, but no step of turn 1 is open'],
  },
  {
    // Frozen with V4: the quoted values are reworded too, so this call id reads as "forked-1".
    name: 'a call id holding the cause word',
    log: events(
      ...open,
      declare('interrupted-1'),
      closer(3, false, (d) => void (d.message.id = 'forked-tool-result-interrupted-1-9'), 'interrupted-1'),
    ),
    messages: [
      `tool/result at seq 3: a synthetic not-started result's id must be "forked-tool-result-forked-1-3" (forked-tool-result-<callId>-<seq>), got "forked-tool-result-forked-1-9"`,
    ],
  },
  {
    name: 'a forked turn end without an open turn',
    log: events(['turn/end', { turn: 1, reason: { kind: 'forked' } }]),
    messages: ['turn/end at seq 0: expected an open turn, but no turn is open'],
  },
  {
    name: 'a forked turn end of another turn over an open step',
    log: events(...open, ['turn/end', { turn: 2, reason: { kind: 'forked' } }]),
    messages: [
      'turn/end at seq 2: expected the open turn 1, got 2',
      'turn/end at seq 2: expected no open step, but step 1 is open since seq 1',
    ],
  },
];

/** What the frozen V3 checker says about the interrupted view of the log's mapped events. */
function v3MessagesOnTheView(log: readonly V3Event[]): string[] {
  const checker = new V3RelationshipChecker();
  const out: string[] = [];
  for (const event of log) {
    const view = interruptedViewOf(event);
    const sink: Issue[] = [];
    checker.checkInto(view, sink);
    if (view !== event) out.push(...sink.map((issue) => issue.message));
    checker.apply(view);
  }
  return out;
}

describe('the forked wording of V3 issues about a fork closer', () => {
  it('takes its cause words from the closers’ id table (SPEC §4)', () => {
    expect(syntheticResultId('interrupted', 'c', 1)).toBe(`${INTERRUPTED_CAUSE}-tool-result-c-1`);
    expect(syntheticResultId('forked', 'c', 1)).toBe(`${FORKED_CAUSE}-tool-result-c-1`);
  });

  it.each(CASES)('words $name for the forked record, in V4 and V5, as the old replaceAll did', ({ log, messages }) => {
    for (const version of [4, 5] as const)
      expect(validate(version, { header: header(version), events: log }).map((issue) => issue.message)).toEqual(messages);
    const v3 = v3MessagesOnTheView(log);
    expect(v3.map(forkedWording)).toEqual(messages);
    expect(v3.map((message) => message.replaceAll('interrupted', 'forked'))).toEqual(messages);
  });

  it('never says interrupted about a forked record', () => {
    for (const { messages } of CASES) for (const message of messages) expect(message).not.toMatch(/interrupted/);
  });

  it('equals the replaceAll it replaces on every message (property)', () => {
    const fragments = fc.constantFrom(
      'interrupted',
      'interrupte',
      'nterrupted',
      'forked',
      '-tool-result-',
      'canonical ',
      '"',
      'c1',
      ' ',
      'é',
    );
    const messages = fc.oneof(
      fc.array(fragments, { maxLength: 12 }).map((parts) => parts.join('')),
      fc.string(),
      fc.string({ unit: 'binary' }),
    );
    fc.assert(
      fc.property(messages, (message) => {
        expect(forkedWording(message)).toBe(message.replaceAll('interrupted', 'forked'));
      }),
      { numRuns: 2000 },
    );
  });
});
