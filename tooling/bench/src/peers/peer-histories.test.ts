import type { CoreEvent } from 'dsh-codec';
import { describe, expect, it } from 'vitest';
import { findOpenStepCut } from '../generate/find-open-step-cut.js';
import { generateV4Log } from '../generate/generate-v4-log.js';
import { claudeTranscript, langGraphPlan, piSession, uuidFrom } from './peer-histories.js';
import { createRandom } from '../generate/create-random.js';

const { events } = generateV4Log({ events: 1_000, seed: 12 });
const cut = findOpenStepCut(events, 500);
const declaring = events[cut - 1] as CoreEvent & { type: 'assistant/message' };
const callIds = declaring.data.message.content.flatMap((block) => (block.type === 'tool-call' ? [block.id] : []));

type Parsed = Record<string, unknown> & { uuid?: string; id?: string; message?: { content?: unknown } };
const parse = (text: string): Parsed[] =>
  text
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Parsed);

describe('claudeTranscript', () => {
  it('maps the cut to the line of the last tool_use block of the declaring assistant message', () => {
    const history = claudeTranscript(events, 'session', '/project');
    const lines = parse(history.text);
    expect(lines).toHaveLength(history.records);
    const index = lines.findIndex((line) => line.uuid === history.idAtSeq(cut));
    const content = lines[index]?.message?.content as { type: string; id: string }[];
    expect(content[0]).toMatchObject({ type: 'tool_use', id: callIds.at(-1) });
    expect((lines[index + 1]?.message?.content as { type: string }[])[0]?.type).toBe('tool_result');
  });
});

describe('piSession', () => {
  it('maps the cut to the assistant entry that declares every call of the step', () => {
    const history = piSession(events, 'session', '/project');
    const lines = parse(history.text);
    expect(lines[0]).toMatchObject({ type: 'session', version: 3 });
    const entry = lines.find((line) => line.id === history.idAtSeq(cut));
    const content = entry?.message?.content as { type: string; id?: string }[];
    expect(content.filter((block) => block.type === 'toolCall').map((block) => block.id)).toEqual(callIds);
  });
});

describe('langGraphPlan', () => {
  it('splits the messages around the cut turn and keeps all of them', () => {
    const plan = langGraphPlan(events, cut);
    const turnMessages = 1 + plan.turn.steps.reduce((sum, step) => sum + 1 + step.tools.length, 0);
    expect(plan.before.length + turnMessages + plan.after.length).toBe(plan.messages);
    expect(plan.turn.steps[plan.cutStep]?.ai.toolCalls.map((call) => call.id)).toEqual(callIds);
  });

  it('refuses a cut outside any turn', () => {
    expect(() => langGraphPlan(events, 0)).toThrow(/not inside a turn/);
  });
});

describe('uuidFrom', () => {
  it('writes version-4 UUIDs', () => {
    expect(uuidFrom(createRandom(1))).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
