/**
 * SPEC §18 "Import fixes" (changes §16) and issue 24's one home for importing: subagent files and
 * Codex fork rollouts link to the sessions they belong to in any order, the line types current
 * versions write are skipped quietly, every import is titled and records cwd and model, and a store
 * refuses a fork child that does not inherit its parent's exact prefix. Imports only published packages.
 */
import { claudeCodeTranscript, codexTranscript } from '@dsh/test-utils';
import type { SessionEvent } from 'dsh-codec';
import { SessionError } from 'dsh-session';
import { createHost, createMemoryStore } from 'dsh-host';
import { importSourceOf, importTranscript } from 'dsh-import';
import { describe, expect, it } from 'vitest';

const mainText = claudeCodeTranscript({ turns: 3, spawnsAgent: 'a77aa77' }).text;
const agentText = claudeCodeTranscript({ turns: 2, agentId: 'a77aa77' }).text;
const parent = codexTranscript({ turns: 4, ordinals: true });
const endOfTurn3 = (
  JSON.parse(parent.text.split('\n').find((l) => l.includes('"task_started"') && l.includes('-000000000004"')) ?? '{}') as {
    ordinal: number;
  }
).ordinal;
const forkText = codexTranscript({
  turns: 1,
  sessionId: '019e3000-2222-7333-8444-555566667777',
  forkOf: { threadId: parent.sessionId, endOrdinalExclusive: endOfTurn3 },
}).text;

function hostWithStore() {
  const store = createMemoryStore();
  return { store, host: createHost({ store }) };
}

describe('SPEC §18 import fixes', () => {
  it('a Claude Code subagent file imports as its own session linked to its main session and spawning call, in either order, without SESSION_EXISTS', async () => {
    for (const order of [
      [agentText, mainText],
      [mainText, agentText],
    ]) {
      const { store, host } = hostWithStore();
      for (const text of order) await host.importTranscripts([{ text }]);
      const agentId = '5f0c3a52-7d4e-4b8a-9c61-2e8f4a1b3c7d-agent-a77aa77';
      const agentSource = importSourceOf((await store.observe(agentId)).events);
      expect(agentSource).toMatchObject({ mainSession: '5f0c3a52-7d4e-4b8a-9c61-2e8f4a1b3c7d', agentId: 'a77aa77' });
      const mainSource = importSourceOf((await store.observe('5f0c3a52-7d4e-4b8a-9c61-2e8f4a1b3c7d')).events);
      // Whichever file came first, the call that spawned the subagent is on record.
      expect(
        agentSource?.spawnedBy ?? Object.keys(mainSource?.subagents ?? {}).find((call) => mainSource?.subagents?.[call] === agentId),
      ).toBe('toolu_01FxTask0000000000000001');
      await host.close();
    }
  });

  it("a Codex fork rollout imports as a fork child holding its parent's exact prefix, in the same import or after the parent", async () => {
    for (const batches of [[[forkText, parent.text]], [[parent.text], [forkText]]]) {
      const { store, host } = hostWithStore();
      for (const batch of batches) await host.importTranscripts(batch.map((text) => ({ text })));
      const child = await store.observe('019e3000-2222-7333-8444-555566667777');
      const stored = await store.observe(parent.sessionId);
      const cut = child.header.forkCut as number;
      expect(child.header.parentSession).toBe(parent.sessionId);
      expect(child.events.slice(0, cut + 1)).toEqual(stored.events.slice(0, cut + 1));
      await host.close();
    }
  });

  it('a Codex fork rollout without its parent imports as its own session with a warning naming the parent', async () => {
    const { host } = hostWithStore();
    const report = await host.importTranscripts([{ text: forkText }]);
    expect(report.files[0]?.sessions[0]?.parentSession).toBeNull();
    expect(report.files[0]?.warnings.join('\n')).toContain(parent.sessionId);
    await host.close();
  });

  it('the line types current versions write are skipped without a warning; every import records cwd and model and has a title', () => {
    for (const text of [
      claudeCodeTranscript({ turns: 3, currentLineTypes: true }).text,
      codexTranscript({ turns: 3, currentLineTypes: true }).text,
    ]) {
      const { sessions, warnings } = importTranscript(text);
      expect(
        warnings.filter((w) =>
          /"(mode|api-request|api-request-blob|api-request-shape|atis-latch|tools-used|cost-state|world_state|token_usage_record)"/.test(w),
        ),
      ).toEqual([]);
      const events = sessions[0]?.events ?? [];
      const config = events.filter((e) => e.type === 'session/config').map((e) => e.data as { cwd?: string; model?: string });
      expect(config.some((c) => c.cwd !== undefined) && config.some((c) => c.model !== undefined)).toBe(true);
      expect(events.some((e) => e.type === 'session/title')).toBe(true);
    }
  });

  it("the store refuses a fork child whose first forkCut + 1 events are not its parent's, storing nothing", async () => {
    const store = createMemoryStore();
    const [main, branch] = importTranscript(claudeCodeTranscript({ turns: 4, branchAtTurn: 3 }).text).sessions;
    if (main === undefined || branch === undefined) throw new Error('expected a main line and a branch');
    await store.import(main);
    const first = branch.events[0] as SessionEvent;
    const tampered = { header: branch.header, events: [{ ...first, time: first.time + 1 }, ...branch.events.slice(1)] };
    const error = await store.import(tampered).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(SessionError.is(error) && error.code).toBe('INVALID_EVENT');
    expect((error as Error).message).toContain('seq 0 differs');
    expect(await store.has(branch.header.id)).toBe(false);
    await store.import(branch);
    expect(await store.has(branch.header.id)).toBe(true);
  });
});
