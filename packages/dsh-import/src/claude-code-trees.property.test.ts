/**
 * Property: over generated Claude Code-shaped trees (turns of split responses with parallel calls,
 * rewinds to an earlier turn end, an open trailing call), every import validates, every branch
 * inherits its parent's events exactly, results pair as written, and importing is deterministic.
 */
import fc from 'fast-check';
import { CURRENT_FORMAT_VERSION, encodeJsonl, validate } from 'dsh-codec';
import { describe, expect, it } from 'vitest';
import { importTranscript } from 'dsh-import';
import { importedCalls, importedResults, sourceResults } from './__fixtures__/source-results.js';

type Step = { calls: number; text: boolean };
type Turn = { steps: Step[]; rewindTo: number | undefined };

const step = fc.record({ calls: fc.integer({ min: 0, max: 3 }), text: fc.boolean() });
const turn = fc.record({
  steps: fc.array(step, { minLength: 1, maxLength: 4 }),
  rewindTo: fc.option(fc.nat({ max: 20 }), { nil: undefined }),
});
const tree = fc.record({ turns: fc.array(turn, { minLength: 1, maxLength: 10 }), open: fc.boolean() });

/** Writes the generated tree as Claude Code lines; returns the text and how many rewinds it made. */
function write(turns: Turn[], open: boolean): { text: string; rewinds: number } {
  const lines: string[] = [];
  let n = 0;
  let clock = 1_700_000_000_000;
  const uuid = () => `u-${++n}`;
  const line = (parent: string | null, type: string, message: object, extra: object = {}): string => {
    const id = uuid();
    lines.push(
      JSON.stringify({
        parentUuid: parent,
        isSidechain: false,
        sessionId: 'prop',
        cwd: '/w',
        type,
        message,
        uuid: id,
        timestamp: new Date((clock += 1000)).toISOString(),
        ...extra,
      }),
    );
    return id;
  };
  // The end of each completed turn on the current path: rewind targets.
  const ends: (string | null)[] = [null];
  let parent: string | null = null;
  let rewinds = 0;
  let call = 0;
  turns.forEach((t, index) => {
    if (t.rewindTo !== undefined && index > 0) {
      const target = t.rewindTo % ends.length;
      if (target < ends.length - 1) {
        parent = ends[target] as string | null;
        ends.length = target + 1;
        rewinds++;
      }
    }
    parent = line(parent, 'user', { role: 'user', content: `prompt ${index}` });
    t.steps.forEach((s, stepIndex) => {
      const messageId = `msg-${index}-${stepIndex}`;
      const blocks: object[] = [];
      if (s.text || s.calls === 0) blocks.push({ type: 'text', text: `answer ${index}.${stepIndex}` });
      for (let c = 0; c < s.calls; c++)
        blocks.push({ type: 'tool_use', id: `toolu_${++call}`, name: ['Read', 'Bash', 'Edit', 'Other'][call % 4], input: { n: call } });
      const declared: { id: string; line: string }[] = [];
      for (const block of blocks) {
        parent = line(parent, 'assistant', { id: messageId, role: 'assistant', model: 'm', content: [block] });
        const b = block as { type: string; id?: string };
        if (b.type === 'tool_use') declared.push({ id: b.id as string, line: parent });
      }
      const last = index === turns.length - 1 && stepIndex === t.steps.length - 1;
      if (open && last) return;
      declared.forEach((d, i) => {
        const id = line(d.line, 'user', {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: d.id,
              content: i % 2 === 0 ? `out ${d.id}` : [{ type: 'text', text: `out ${d.id}` }],
              is_error: i === 2,
            },
          ],
        });
        if (i === declared.length - 1) parent = id;
      });
    });
    ends.push(parent);
  });
  return { text: `${lines.join('\n')}\n`, rewinds };
}

describe('Claude Code-shaped trees', () => {
  it('import into valid sessions whose branches inherit exactly, results paired, deterministically', { timeout: 180_000 }, () => {
    fc.assert(
      fc.property(tree, ({ turns, open }) => {
        const { text, rewinds } = write(turns, open);
        const result = importTranscript(text);
        expect(result.sessions).toHaveLength(rewinds + 1);
        const byId = new Map(result.sessions.map((s) => [s.header.id, s]));
        for (const session of result.sessions) {
          expect(validate(CURRENT_FORMAT_VERSION, session)).toEqual([]);
          const { parentSession, inheritedEventCount } = session.header;
          if (parentSession === undefined) continue;
          expect(session.events.slice(0, inheritedEventCount)).toEqual(byId.get(parentSession)?.events.slice(0, inheritedEventCount));
        }
        const source = sourceResults(text);
        for (const session of result.sessions) {
          const results = importedResults(session.events);
          for (const { callId } of importedCalls(session.events)) {
            if (results.has(callId)) expect(results.get(callId)).toEqual(source.get(callId));
          }
        }
        const main = result.sessions[0]?.events ?? [];
        if (open && (turns[turns.length - 1]?.steps.at(-1)?.calls ?? 0) > 0) expect(main[main.length - 1]?.type).toBe('tool/call');
        expect(importTranscript(text).sessions.map(encodeJsonl)).toEqual(result.sessions.map(encodeJsonl));
      }),
      { numRuns: 100 },
    );
  });
});
