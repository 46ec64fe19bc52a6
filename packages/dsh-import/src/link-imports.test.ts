import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { claudeCodeTranscript, codexTranscript, piTranscript } from '@dsh/test-utils';
import { CURRENT_FORMAT_VERSION, validate, type SessionEvent } from 'dsh-codec';
import { describe, expect, it } from 'vitest';
import { importSourceOf, importTranscript, linkImports, type ImportedSession, type ImportResult } from 'dsh-import';

const none = () => Promise.resolve(undefined);
const storeOf = (sessions: ImportedSession[]) => (id: string) => Promise.resolve(sessions.find((session) => session.header.id === id));
const main = (result: ImportResult | undefined): ImportedSession => result?.sessions[0] as ImportedSession;

/** The ordinal of the line that starts turn `turn` of a generated rollout (its task_started event). */
function ordinalOfTurn(text: string, turn: number): number {
  const line = text.split('\n').find((l) => l.includes('"task_started"') && l.includes(`-${turn.toString().padStart(12, '0')}"`));
  return (JSON.parse(line ?? '{}') as { ordinal: number }).ordinal;
}

describe('Claude Code subagent files', () => {
  const mainText = claudeCodeTranscript({ turns: 4, spawnsAgent: 'a77aa77' }).text;
  const agentText = claudeCodeTranscript({ turns: 3, agentId: 'a77aa77' }).text;

  it('a subagent file imports as its own session, its id derived from the main session id and the agentId', () => {
    const agent = main(importTranscript(agentText));
    const parent = main(importTranscript(mainText));
    expect(agent.header.id).toBe(`${parent.header.id}-agent-a77aa77`);
    expect(agent.header.parentSession).toBeUndefined();
    expect(importSourceOf(agent.events)).toMatchObject({ format: 'claude-code', agentId: 'a77aa77', mainSession: parent.header.id });
    expect(validate(CURRENT_FORMAT_VERSION, agent)).toEqual([]);
  });

  it('the main session records which of its calls spawned which subagent session', () => {
    const parent = main(importTranscript(mainText));
    expect(importSourceOf(parent.events)?.subagents).toEqual({ toolu_01FxTask0000000000000001: `${parent.header.id}-agent-a77aa77` });
  });

  it('linked in either order (or with the main session already stored), the subagent names its spawning call', async () => {
    const forward = await linkImports([importTranscript(mainText), importTranscript(agentText)], none);
    const backward = await linkImports([importTranscript(agentText), importTranscript(mainText)], none);
    const stored = await linkImports([importTranscript(agentText)], storeOf([main(importTranscript(mainText))]));
    for (const result of [forward[1], backward[0], stored[0]]) {
      expect(importSourceOf(main(result).events)?.spawnedBy).toBe('toolu_01FxTask0000000000000001');
      expect(validate(CURRENT_FORMAT_VERSION, main(result))).toEqual([]);
    }
  });

  it('without its main session the subagent still imports, naming the main session but no call', async () => {
    const [alone] = await linkImports([importTranscript(agentText)], none);
    expect(importSourceOf(main(alone).events)).toMatchObject({ mainSession: expect.any(String) as string });
    expect(importSourceOf(main(alone).events)?.spawnedBy).toBeUndefined();
  });
});

describe('Codex fork rollouts (history_base)', () => {
  const parentText = codexTranscript({ turns: 6, ordinals: true }).text;
  const parentId = '019e2000-1111-7222-8333-444455556666';
  const end = ordinalOfTurn(parentText, 5);
  const forkText = codexTranscript({
    turns: 2,
    sessionId: '019e3000-2222-7333-8444-555566667777',
    forkOf: { threadId: parentId, endOrdinalExclusive: end },
  }).text;

  it("imports as a fork child of its parent rollout holding the parent's exact prefix through its fourth turn", async () => {
    for (const order of [
      [parentText, forkText],
      [forkText, parentText],
    ]) {
      const linked = await linkImports(
        order.map((text) => importTranscript(text)),
        none,
      );
      const [parent, child] = linked.map(main) as [ImportedSession, ImportedSession];
      expect(parent.header.id).toBe(parentId);
      expect(child.header).toMatchObject({ id: '019e3000-2222-7333-8444-555566667777', parentSession: parentId });
      const cut = child.header.forkCut as number;
      expect(child.header.inheritedEventCount).toBe(cut + 1);
      expect(child.events.slice(0, cut + 1)).toEqual(parent.events.slice(0, cut + 1));
      expect(parent.events[cut]).toMatchObject({ type: 'turn/end', data: { turn: 4 } });
      expect(child.events[cut + 1]).toMatchObject({ type: 'session/end-seed', data: { inherited: true } });
      expect(child.events.find((e: SessionEvent) => e.seq > cut && e.type === 'turn/start')).toMatchObject({ data: { turn: 5 } });
      expect(validate(CURRENT_FORMAT_VERSION, child)).toEqual([]);
      expect(linked[0]?.warnings.concat(linked[1]?.warnings ?? []).some((w) => w.includes('fork of Codex'))).toBe(false);
    }
  });

  it('links to a parent that is already stored', async () => {
    const [child] = await linkImports([importTranscript(forkText)], storeOf([main(importTranscript(parentText))]));
    expect(main(child).header.parentSession).toBe(parentId);
  });

  it('without its parent it imports as its own session with a warning naming the missing parent', async () => {
    const [alone] = await linkImports([importTranscript(forkText)], none);
    expect(main(alone).header.parentSession).toBeUndefined();
    expect(alone?.warnings).toContainEqual(expect.stringContaining(`fork of Codex thread ${parentId}`));
  });

  it('a subagent rollout records its parent thread as its main session', () => {
    const sub = main(
      importTranscript(codexTranscript({ turns: 2, sessionId: '019e4000-3333-7444-8555-666677778888', subagentOf: parentId }).text),
    );
    expect(importSourceOf(sub.events)).toMatchObject({ format: 'codex', mainSession: parentId, agentId: 'Socrates' });
  });
});

describe('line types current versions write', () => {
  it('Claude Code mode, api-request, cost-state, … lines are skipped without a warning; an unknown type still warns once', () => {
    const { warnings } = importTranscript(claudeCodeTranscript({ turns: 4, currentLineTypes: true }).text);
    expect(warnings.filter((w) => w.includes('unknown type'))).toEqual([expect.stringContaining('"future-line-type"')]);
  });

  it('Codex world_state and token_usage_record lines are skipped without a warning', () => {
    const kinds = (warnings: string[]) => warnings.map((w) => w.replace(/\(first at line \d+\)/, ''));
    const quiet = importTranscript(codexTranscript({ turns: 4, currentLineTypes: true }).text).warnings;
    expect(kinds(quiet)).toEqual(kinds(importTranscript(codexTranscript({ turns: 4 }).text).warnings));
  });
});

describe('cwd, model and title', () => {
  it.each([
    ['claude-code', claudeCodeTranscript({ turns: 3 }).text, 'anthropic:claude-opus-4-6'],
    ['codex', codexTranscript({ turns: 3 }).text, 'openai:gpt-5.4'],
    ['pi', piTranscript({ turns: 3 }).text, undefined],
  ])('%s: session/config carries the source cwd and model (as a spec dsh runs), and the session has a title', (_format, text, model) => {
    const events = main(importTranscript(text)).events;
    const config = events.filter((e) => e.type === 'session/config').map((e) => e.data as { cwd?: string; model?: string });
    expect(config.some((c) => typeof c.cwd === 'string')).toBe(true);
    if (model !== undefined) expect(config.some((c) => c.model === model)).toBe(true);
    else expect(config.some((c) => typeof c.model === 'string')).toBe(true);
    expect(events.some((e) => e.type === 'session/title' && typeof (e.data as { title: unknown }).title === 'string')).toBe(true);
  });

  it('a file without a title line is titled by its first user prompt', () => {
    const events = main(importTranscript(codexTranscript({ turns: 3 }).text)).events;
    expect(events.find((e) => e.type === 'session/title')?.data).toEqual({ title: 'Turn 1: make module 1 pass its tests.' });
  });
});

const ROOT = ['/work/shared/data/transcripts', join(import.meta.dirname, '../../../../shared/data/transcripts')].find((dir) =>
  existsSync(dir),
);

describe.skipIf(ROOT === undefined)('real subagent files', () => {
  const read = (path: string) => readFileSync(join(ROOT ?? '', path), 'utf8');

  it('spotter: main and subagent files (acompact too) import together under distinct ids, the subagent naming its Task call', async () => {
    const files = [
      'claude-code/spotter-4d5611e5-main.jsonl',
      'claude-code/spotter-4d5611e5-subagent-a2898e3.jsonl',
      'claude-code/spotter-4d5611e5-subagent-acompact-e1f845.jsonl',
    ];
    const linked = await linkImports(
      files.map((file) => importTranscript(read(file))),
      none,
    );
    const ids = linked.map((result) => main(result).header.id);
    expect(ids).toEqual([
      '4d5611e5-241a-462a-8d15-5122611a9569',
      '4d5611e5-241a-462a-8d15-5122611a9569-agent-a2898e3',
      '4d5611e5-241a-462a-8d15-5122611a9569-agent-acompact-e1f845',
    ]);
    expect(importSourceOf(main(linked[1]).events)?.spawnedBy).toBe('toolu_017pLRuPHYTX5t99EnLyV53m');
    for (const result of linked) for (const session of result.sessions) expect(validate(CURRENT_FORMAT_VERSION, session)).toEqual([]);
  });

  it('feipi: the Codex subagent rollout names its parent thread; the newest Claude Code file imports without unknown-type warnings', () => {
    const sub = main(importTranscript(read('codex/feipi-rollout-019ede26-subagent-0.142.jsonl')));
    expect(importSourceOf(sub.events)).toMatchObject({ mainSession: '019ede24-67de-7b11-b46f-7922530907a9', agentId: 'Socrates' });
    const newest = importTranscript(read('claude-code/feipi-8a283a61.jsonl'));
    expect(newest.warnings.filter((w) => w.includes('unknown type'))).toEqual([]);
    expect(main(newest).events.some((e) => e.type === 'session/title')).toBe(true);
  });
});
