/**
 * @module __fixtures__/claude-store-contract
 * SPEC §19's store behaviours as one suite, run against this package over each dsh store and, as a
 * reference that the suite asks what the SDK means, against the SDK's own `InMemorySessionStore`.
 */
import { foldSessionSummary } from '@anthropic-ai/claude-agent-sdk';
import { describe, expect, it } from 'vitest';
import type { ClaudeSessionStore, SessionStoreEntry } from '../index.js';

/** The part of a store the suite calls (the SDK's `SessionStore` with every optional method): this package's store without `close`. */
export type ContractStore = Omit<ClaudeSessionStore, 'close'>;

let counter = 0;
/** A project key no other test uses. */
export function freshProject(): string {
  counter += 1;
  return `-work-project-${String(process.pid)}-${String(counter)}`;
}

/** A user prompt entry as Claude Code writes it. */
export function userEntry(uuid: string, text: string, parentUuid: string | null = null): SessionStoreEntry {
  return {
    parentUuid,
    isSidechain: false,
    type: 'user',
    message: { role: 'user', content: text },
    uuid,
    timestamp: '2026-12-02T10:00:00.000Z',
    cwd: '/work/app',
    sessionId: 'ignored-by-the-store',
    version: '2.1.333',
  };
}

/** An assistant entry with text and, optionally, one tool_use block. */
export function assistantEntry(
  uuid: string,
  parentUuid: string,
  text: string,
  toolUse?: { id: string; name: string; input: Record<string, unknown> },
): SessionStoreEntry {
  return {
    parentUuid,
    isSidechain: false,
    type: 'assistant',
    message: {
      id: `msg_${uuid}`,
      role: 'assistant',
      model: 'claude-test',
      content: [{ type: 'text', text }, ...(toolUse === undefined ? [] : [{ type: 'tool_use', ...toolUse }])],
      stop_reason: toolUse === undefined ? 'end_turn' : 'tool_use',
      usage: { input_tokens: 10, output_tokens: 5 },
    },
    uuid,
    timestamp: '2026-12-02T10:00:01.000Z',
  };
}

/**
 * Registers the suite for the store `make()` returns (one store per test). `sdkReference`: the SDK's
 * own in-memory store, which keeps neither of SPEC §19's stricter points (an empty append creates
 * nothing; `uuid` deduplicates), so those two run only for this package.
 */
export function describeClaudeStoreContract(
  name: string,
  make: () => Promise<ContractStore>,
  options: { sdkReference: boolean } = { sdkReference: false },
): void {
  describe(`${name}: the SDK SessionStore contract`, () => {
    it('load returns what was appended, deep-equal and in append order across batches', async () => {
      const store = await make();
      const key = { projectKey: freshProject(), sessionId: 'a1b2c3d4-0000-4000-8000-000000000001' };
      const first = [userEntry('u1', 'hello'), assistantEntry('a1', 'u1', 'hi')];
      const second: SessionStoreEntry[] = [
        { type: 'custom-title', customTitle: 'Greeting', sessionId: key.sessionId },
        { type: 'x-future-entry', uuid: 'f1', nested: { list: [1, 'two', null, { deep: true }], empty: {} }, unicode: 'ü 😀 \u2028' },
      ];
      await store.append(key, first);
      await store.append(key, second);
      expect(await store.load(key)).toEqual([...first, ...second]);
    });

    it('load of a key never written is null', async () => {
      const store = await make();
      expect(await store.load({ projectKey: freshProject(), sessionId: 'never' })).toBeNull();
    });

    it.skipIf(options.sdkReference)('append(key, []) stores and creates nothing', async () => {
      const store = await make();
      const projectKey = freshProject();
      await store.append({ projectKey, sessionId: 's-empty' }, []);
      expect(await store.load({ projectKey, sessionId: 's-empty' })).toBeNull();
      expect(await store.listSessions(projectKey)).toEqual([]);
    });

    it('subpath keys are independent of the main transcript', async () => {
      const store = await make();
      const projectKey = freshProject();
      const main = { projectKey, sessionId: 's1' };
      const sub = { ...main, subpath: 'subagents/agent-abc' };
      await store.append(sub, [userEntry('su1', 'sub task')]);
      expect(await store.load(main)).toBeNull();
      await store.append(main, [userEntry('mu1', 'main task')]);
      expect(await store.load(main)).toEqual([userEntry('mu1', 'main task')]);
      expect(await store.load(sub)).toEqual([userEntry('su1', 'sub task')]);
    });

    it('projectKeys are isolated', async () => {
      const store = await make();
      const [p1, p2] = [freshProject(), freshProject()];
      await store.append({ projectKey: p1, sessionId: 'same' }, [userEntry('x1', 'in p1')]);
      await store.append({ projectKey: p2, sessionId: 'same' }, [userEntry('x2', 'in p2')]);
      expect(await store.load({ projectKey: p1, sessionId: 'same' })).toEqual([userEntry('x1', 'in p1')]);
      expect(await store.load({ projectKey: p2, sessionId: 'same' })).toEqual([userEntry('x2', 'in p2')]);
      expect((await store.listSessions(p1)).map((row) => row.sessionId)).toEqual(['same']);
    });

    it('listSessions lists main transcripts only, with mtime as integer epoch milliseconds', async () => {
      const store = await make();
      const projectKey = freshProject();
      const before = Date.now();
      await store.append({ projectKey, sessionId: 's1' }, [userEntry('l1', 'one')]);
      await store.append({ projectKey, sessionId: 's2' }, [userEntry('l2', 'two')]);
      await store.append({ projectKey, sessionId: 's2', subpath: 'subagents/agent-1' }, [userEntry('l3', 'sub')]);
      await store.append({ projectKey, sessionId: 's3', subpath: 'subagents/agent-2' }, [userEntry('l4', 'orphan sub')]);
      const after = Date.now();
      const rows = await store.listSessions(projectKey);
      expect(rows.map((row) => row.sessionId).sort()).toEqual(['s1', 's2']);
      for (const row of rows) {
        expect(Number.isInteger(row.mtime)).toBe(true);
        expect(row.mtime).toBeGreaterThanOrEqual(before - 1);
        expect(row.mtime).toBeLessThanOrEqual(after + 1);
      }
    });

    it('delete of a main key removes its subkeys too; delete with a subpath removes only that subkey', async () => {
      const store = await make();
      const projectKey = freshProject();
      const main = { projectKey, sessionId: 'd1' };
      const subA = { ...main, subpath: 'subagents/agent-a' };
      const subB = { ...main, subpath: 'subagents/agent-b' };
      const other = { projectKey, sessionId: 'd2' };
      for (const [index, key] of [main, subA, subB, other].entries()) await store.append(key, [userEntry(`d-${String(index)}`, 'x')]);
      await store.delete(subA);
      expect(await store.load(subA)).toBeNull();
      expect(await store.load(subB)).not.toBeNull();
      expect(await store.load(main)).not.toBeNull();
      await store.delete(main);
      expect([await store.load(main), await store.load(subB)]).toEqual([null, null]);
      expect(await store.listSubkeys(main)).toEqual([]);
      expect(await store.load(other)).toEqual([userEntry('d-3', 'x')]);
      expect((await store.listSessions(projectKey)).map((row) => row.sessionId)).toEqual(['d2']);
    });

    it("listSubkeys returns a session's subpaths, never the main transcript", async () => {
      const store = await make();
      const projectKey = freshProject();
      const main = { projectKey, sessionId: 'k1' };
      await store.append(main, [userEntry('k-main', 'main')]);
      await store.append({ ...main, subpath: 'subagents/agent-x' }, [userEntry('k-x', 'x')]);
      await store.append({ ...main, subpath: 'subagents/agent-y' }, [userEntry('k-y', 'y')]);
      await store.append({ projectKey, sessionId: 'k2', subpath: 'subagents/agent-z' }, [userEntry('k-z', 'z')]);
      expect((await store.listSubkeys(main)).sort()).toEqual(['subagents/agent-x', 'subagents/agent-y']);
    });

    it('listSessionSummaries gives one summary per session, current after every append, on the listSessions clock', async () => {
      const store = await make();
      const projectKey = freshProject();
      const key = { projectKey, sessionId: 'sum1' };
      const first = [userEntry('m1', 'first prompt')];
      await store.append(key, first);
      await store.append({ projectKey, sessionId: 'sum2' }, [userEntry('m2', 'other')]);
      await store.append({ ...key, subpath: 'subagents/agent-q' }, [userEntry('m3', 'sub')]);
      const summaries = await store.listSessionSummaries(projectKey);
      expect(summaries.map((summary) => summary.sessionId).sort()).toEqual(['sum1', 'sum2']);
      const title: SessionStoreEntry = { type: 'custom-title', customTitle: 'Renamed', sessionId: key.sessionId };
      await store.append(key, [title]);
      const later = (await store.listSessionSummaries(projectKey)).find((summary) => summary.sessionId === 'sum1');
      const mtime = (await store.listSessions(projectKey)).find((row) => row.sessionId === 'sum1')?.mtime;
      expect(later?.mtime).toBe(mtime);
      expect(later?.data).toEqual(foldSessionSummary(undefined, key, [...first, title], { mtime: mtime ?? 0 }).data);
      expect(later?.data.customTitle).toBe('Renamed');
    });

    it.skipIf(options.sdkReference)(
      'uuid is an idempotency key: a batch appended again after a failure or timeout is stored once',
      async () => {
        const store = await make();
        const key = { projectKey: freshProject(), sessionId: 'retry' };
        const batch = [userEntry('r1', 'q'), { type: 'tag', tag: 'no-uuid' }, assistantEntry('r2', 'r1', 'a')];
        // A timed-out call that still lands and its retry, both in flight at once.
        await Promise.all([store.append(key, batch), store.append(key, batch)]);
        await store.append(key, batch);
        await store.append(key, [userEntry('r3', 'next', 'r2')]);
        expect(await store.load(key)).toEqual([...batch, userEntry('r3', 'next', 'r2')]);
      },
    );
  });
}
