/**
 * SPEC §16 — imported transcripts are real dsh sessions: they store through the store API, and a
 * fork at every `tool/call` of the main line succeeds, its next model request holding every inherited
 * real result and honest closers for what the cut left open. Imports only published packages.
 */
import { existsSync, readFileSync } from 'node:fs';
import { claudeCodeTranscript, codexTranscript, piTranscript } from '@dsh/test-utils';
import { Agent, createScriptedModel, deriveHistory, type ModelMessage } from 'dsh-agent';
import type { SessionEvent } from 'dsh-codec';
import { importTranscript } from 'dsh-import';
import { createMemoryStore, SessionError } from 'dsh-session';
import { describe, expect, it } from 'vitest';

const SHARED = '/work/shared/data/transcripts';
const REAL = [
  'claude-code/spotter-4d5611e5-main.jsonl',
  'claude-code/codemie-e9fb405b-turn1-live-prefix.jsonl',
  'codex/codemie-rollout-019e1625-codex-tui-0.125.0.jsonl',
  'pi/kimchi-019dcd91-v3.jsonl',
]
  .map((file) => `${process.env.DSH_TRANSCRIPTS ?? SHARED}/${file}`)
  .filter((path) => existsSync(path));

const SOURCES: [string, () => string][] = [
  [
    'Claude Code (branched, compacted, open)',
    () => claudeCodeTranscript({ turns: 10, branchAtTurn: 4, compactInTurn: 6, endMidCall: true }).text,
  ],
  ['Codex (compacted, open)', () => codexTranscript({ turns: 10, compactAfterTurn: 4, endMidCall: true }).text],
  ['pi (branched, compacted, open)', () => piTranscript({ turns: 12, branchAfterTurn: 3, compactAfterTurn: 6, endMidCall: true }).text],
  ...REAL.map((path): [string, () => string] => [path.slice(path.lastIndexOf('/') + 1), () => readFileSync(path, 'utf8')]),
];

type Call = { seq: number; callId: string };

/** The calls declared by the step open at `cut` that have no result through `cut`. */
function openCalls(events: readonly SessionEvent[], cut: number): string[] {
  let pending: string[] = [];
  for (const event of events.slice(0, cut + 1)) {
    const data = event.data as { message?: { content?: { type: string; id?: string }[]; callId?: string } };
    if (event.type === 'step/start' || event.type === 'step/end') pending = [];
    if (event.type === 'assistant/message')
      pending = (data.message?.content ?? []).filter((b) => b.type === 'tool-call').map((b) => b.id ?? '');
    if (event.type === 'tool/result') pending = pending.filter((id) => id !== data.message?.callId);
  }
  return pending;
}

describe('§16 imported transcripts are real sessions', () => {
  describe.each(SOURCES)('%s', (_name, read) => {
    const { sessions } = importTranscript(read());

    it('§16 every session stores through the store API, and again is SESSION_EXISTS', async () => {
      const store = createMemoryStore();
      for (const session of sessions) await store.import(session);
      for (const session of sessions) expect((await store.inspect(session.header.id)).events).toEqual(session.events);
      const again = await store.import(sessions[0]!).catch((error: unknown) => error);
      expect(SessionError.is(again) && again.code).toBe('SESSION_EXISTS');
      await store.close();
    });

    it('§16 a fork at every tool/call of the main line succeeds and tells the model the truth', { timeout: 300_000 }, async () => {
      const store = createMemoryStore();
      for (const session of sessions) await store.import(session);
      const main = sessions[0]!;
      const calls: Call[] = main.events
        .filter((e) => e.type === 'tool/call')
        .map((e) => ({ seq: e.seq, callId: (e.data as { callId: string }).callId }));
      expect(calls.length).toBeGreaterThan(0);
      for (const { seq } of calls) {
        const child = await store.fork(main.header.id, { atSeq: seq });
        const model = createScriptedModel([{ text: 'Understood.' }]);
        const agent = new Agent({ session: child, model, tools: [] });
        const { inputId } = agent.enqueue('Carry on from here.');
        await agent.result(inputId);
        await agent.close();
        const request = model.requests[0]?.messages ?? [];
        const tools = request.filter((m): m is Extract<ModelMessage, { role: 'tool' }> => m.role === 'tool');
        // Every real result the inherited history shows reaches the model unchanged.
        const inherited = deriveHistory(main.events.slice(0, seq + 1)).filter((m) => m.role === 'tool');
        for (const result of inherited) expect(tools).toContainEqual(result);
        // Each call the cut left open gets a forked closer, in declaration order.
        const closers = tools.filter((m) => m.id.startsWith('forked-tool-result-'));
        expect(closers.map((m) => m.callId)).toEqual(openCalls(main.events, seq));
        for (const closer of closers) expect(closer.isError).toBe(true);
        await child.close();
        await store.delete(child.id);
      }
      await store.close();
    });
  });
});
