import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { openSessionStore, type SessionStore } from 'dsh-session';
import { makeTempDir } from '@dsh/test-utils';
import { createClaudeSessionStore, type ClaudeSessionStore, type SessionStoreEntry } from 'dsh-claude-agent-sdk';

const dir = await makeTempDir('dsh-claude-property-');
afterAll(() => dir.remove());

type Step =
  | { kind: 'batch'; entries: { withUuid: boolean; type: string; payload: unknown }[] }
  | { kind: 'retry'; pick: number; together: boolean }
  | { kind: 'reopen' };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('batch' as const),
      entries: fc.array(
        fc.record({
          withUuid: fc.boolean(),
          type: fc.oneof(fc.constantFrom('user', 'assistant', 'tag', 'x-unknown'), fc.string({ minLength: 1 })),
          payload: fc.jsonValue({ maxDepth: 3 }),
        }),
        {
          minLength: 1,
          maxLength: 5,
        },
      ),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('retry' as const), pick: fc.nat(), together: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('reopen' as const) }) },
);

describe('any sequence of appends, with retried batches, loads back exactly', () => {
  it('load equals every batch once in append order; a retried batch adds nothing unless it has no uuid at all', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        run += 1;
        const key = { projectKey: '-work-property', sessionId: `run-${String(run)}` };
        let store: SessionStore = await openSessionStore({ dir: dir.path });
        let claude: ClaudeSessionStore = createClaudeSessionStore({ store, holdMs: 50 });
        const batches: SessionStoreEntry[][] = [];
        const expected: SessionStoreEntry[] = [];
        let uuid = 0;
        try {
          for (const next of steps) {
            if (next.kind === 'reopen') {
              await claude.close();
              await store.close();
              store = await openSessionStore({ dir: dir.path });
              claude = createClaudeSessionStore({ store, holdMs: 50 });
            } else if (next.kind === 'batch') {
              const batch = next.entries.map((entry) => ({
                type: entry.type,
                ...(entry.withUuid ? { uuid: `u${String((uuid += 1))}` } : {}),
                payload: entry.payload,
              }));
              batches.push(batch);
              expected.push(...batch);
              await claude.append(key, batch);
            } else if (batches.length > 0) {
              const batch = batches[next.pick % batches.length] as SessionStoreEntry[];
              const again = next.together ? [batch, batch] : [batch];
              // The SDK's retry may overlap the timed-out call; both count as one when any entry has a uuid.
              await Promise.all(again.map((copy) => claude.append(key, copy)));
              if (!batch.some((entry) => entry.uuid !== undefined)) for (const _ of again) expected.push(...batch);
            }
          }
          const loaded = await claude.load(key);
          expect(loaded).toEqual(expected.length === 0 ? null : JSON.parse(JSON.stringify(expected)));
        } finally {
          await claude.close();
          await store.close();
        }
      }),
      { numRuns: 40 },
    );
  });
});
