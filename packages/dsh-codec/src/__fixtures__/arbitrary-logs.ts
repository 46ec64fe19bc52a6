/**
 * fast-check generators for property tests: an abstract session plan, rendered as a valid log in
 * any format version V0–V7. One plan rendered in every version must decode to the same V7 log
 * (reasoning blocks exist only from V5 on: compare older renderings with `withoutReasoning(plan)`).
 */
import fc from 'fast-check';
import type { FormatVersion } from 'dsh-codec';

export type CallPlan = { name: string; args: string; outcome: 'ok' | 'error' | 'started' | 'declared'; output: string };
/** `reasoning`: a reasoning block before the text (rendered from V5 on only). */
export type StepPlan = { text: string; calls: CallPlan[]; reasoning: { text: string; providerData?: Record<string, string> } | undefined };
export type TurnPlan = { user: string; steps: StepPlan[]; end: 'completed' | 'aborted' | 'error'; message: string | undefined };
/** A session: an optional title (V2+ only), closed turns, and maybe an open turn left by a crash. */
export type LogPlan = {
  title: string | undefined;
  turns: TurnPlan[];
  open: { user: string; steps: StepPlan[]; stepOpen: boolean } | undefined;
};

const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.constantFrom('', 'line\nbreak', 'quote " and \\ backslash', '\u2028\u2029', 'emoji 🎉 日本', '-0', '1e999'),
);
const call: fc.Arbitrary<CallPlan> = fc.record({
  name: fc.constantFrom('read', 'shell', 'list'),
  args: fc.oneof(fc.json({ maxDepth: 2 }), text),
  outcome: fc.constantFrom('ok', 'error', 'started', 'declared'),
  output: text,
});
const reasoning = fc.option(
  fc.record(
    { text, providerData: fc.dictionary(fc.constantFrom('signature', 'data', 'reasoning_content'), text, { maxKeys: 2 }) },
    { requiredKeys: ['text'] },
  ),
  { nil: undefined },
);
const step: fc.Arbitrary<StepPlan> = fc.record({ text, calls: fc.array(call, { maxLength: 3 }), reasoning });
const turn: fc.Arbitrary<TurnPlan> = fc.record({
  user: text,
  steps: fc.array(step, { maxLength: 3 }),
  end: fc.constantFrom('completed', 'aborted', 'error'),
  message: fc.option(text, { nil: undefined }),
});

/** Plans whose renderings are valid in every version (V0/V1 ignore the title). */
export const logPlan: fc.Arbitrary<LogPlan> = fc.record({
  title: fc.option(text, { nil: undefined }),
  turns: fc.array(turn, { maxLength: 4 }),
  open: fc.option(fc.record({ user: text, steps: fc.array(step, { minLength: 1, maxLength: 2 }), stepOpen: fc.boolean() }), {
    nil: undefined,
  }),
});

/** The plan with every reasoning block dropped: what versions before V5 can express. */
export function withoutReasoning(plan: LogPlan): LogPlan {
  const steps = (list: StepPlan[]) => list.map((s) => ({ ...s, reasoning: undefined }));
  return {
    ...plan,
    turns: plan.turns.map((t) => ({ ...t, steps: steps(t.steps) })),
    open: plan.open === undefined ? undefined : { ...plan.open, steps: steps(plan.open.steps) },
  };
}

type Raw = { seq: number; type: string; time: number; data: unknown };

/**
 * `plan` as a raw artifact of `version`, exactly as that version wrote it. Message ids are
 * `legacy-<seq>` and empty texts have no text block in every version, so all renderings of a plan
 * migrate to the same V7 log (reasoning is rendered from V5 on only).
 */
export function renderLog(plan: LogPlan, version: FormatVersion): { header?: unknown; events: Raw[] } {
  const events: Raw[] = [];
  const add = (type: string, data: unknown) => {
    events.push({ seq: events.length, type, time: 1_000 + events.length * 7, data });
  };
  const id = () => `legacy-${String(events.length)}`;
  const blocks = (value: string) => (value === '' ? [] : [{ type: 'text', text: value }]);
  if (version >= 2 && plan.title !== undefined) add('session/title', { title: plan.title });

  const renderSteps = (turnNumber: number, steps: StepPlan[], leaveLastOpen: boolean) => {
    steps.forEach((s, index) => {
      const stepNumber = index + 1;
      add('step/start', { turn: turnNumber, step: stepNumber });
      const calls = s.calls.map((c, i) => ({ ...c, id: `call_${String(turnNumber)}_${String(stepNumber)}_${String(i)}` }));
      if (version === 0) {
        add('assistant/message', {
          turn: turnNumber,
          step: stepNumber,
          text: s.text,
          toolCalls: calls.map((c) => ({ id: c.id, name: c.name, arguments: c.args })),
        });
      } else {
        const thinking = version >= 5 && s.reasoning !== undefined ? [{ type: 'reasoning', ...s.reasoning }] : [];
        const content = [
          ...thinking,
          ...blocks(s.text),
          ...calls.map((c) => ({ type: 'tool-call', id: c.id, name: c.name, arguments: c.args })),
        ];
        add('assistant/message', { turn: turnNumber, step: stepNumber, message: { id: id(), role: 'assistant', content } });
      }
      for (const c of calls) {
        if (c.outcome === 'declared') continue;
        const base = { turn: turnNumber, step: stepNumber, callId: c.id, name: c.name, arguments: c.args };
        add('tool/call', version >= 3 ? { ...base, effect: 'unknown' } : base);
        if (c.outcome === 'started') continue;
        const isError = c.outcome === 'error';
        if (version === 0) {
          add('tool/result', { turn: turnNumber, step: stepNumber, callId: c.id, output: c.output, isError });
        } else {
          const message = { id: id(), role: 'tool', callId: c.id, content: blocks(c.output), isError };
          add(
            'tool/result',
            version >= 3 && isError
              ? { turn: turnNumber, step: stepNumber, message, error: { name: 'ToolError', code: 'TOOL_FAILED' } }
              : { turn: turnNumber, step: stepNumber, message },
          );
        }
      }
      if (!(leaveLastOpen && index === steps.length - 1)) add('step/end', { turn: turnNumber, step: stepNumber });
    });
  };
  const renderUser = (value: string) => {
    if (version === 0) add('user/message', { text: value });
    else add('user/message', { message: { id: id(), role: 'user', content: blocks(value) } });
  };
  const reason = (t: TurnPlan): unknown => {
    if (version === 0) return t.end;
    if (version <= 2) return t.message === undefined ? { kind: t.end } : { kind: t.end, message: t.message };
    if (t.end === 'aborted') return { kind: 'cancelled' };
    if (t.end === 'error') return { kind: 'error', error: { message: t.message ?? '', code: 'UNKNOWN' } };
    return { kind: 'completed' };
  };

  plan.turns.forEach((t, index) => {
    const turnNumber = index + 1;
    add('turn/start', { turn: turnNumber });
    renderUser(t.user);
    renderSteps(turnNumber, t.steps, false);
    add('turn/end', { turn: turnNumber, reason: reason(t) });
  });
  if (plan.open !== undefined) {
    const turnNumber = plan.turns.length + 1;
    add('turn/start', { turn: turnNumber });
    renderUser(plan.open.user);
    renderSteps(turnNumber, plan.open.steps, plan.open.stepOpen);
  }
  if (version === 0) return { events };
  const createdAt = events[0]?.time ?? 0;
  const header: Record<string, unknown> = { format: 'dsh-session', version, id: 'prop-session', createdAt };
  if (version >= 2) header.inheritedEventCount = 0;
  return { header, events };
}

/** The JSONL text of a raw artifact, lines as its version wrote them. */
export function toJsonl(artifact: { header?: unknown; events: readonly unknown[] }): string {
  const lines = artifact.header === undefined ? [] : [JSON.stringify(artifact.header)];
  for (const event of artifact.events) lines.push(JSON.stringify(event));
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}
