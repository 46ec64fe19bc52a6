import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openSessionStore } from 'dsh-host';
import { makeTempDir, type TempDir } from '@dsh/test-utils';
import { createClaudeSessionStore, forkClaudeSession, type SessionStoreEntry } from 'dsh-claude-agent-sdk';
import { claudeSdkLineage } from './claude-sdk-lineage.js';

// `dsh sessions` reads an Agent SDK transcript's lineage from its first events only (SPEC §24: the
// listing never decodes whole logs). Counted here as `JSON.parse` calls while the lineage is read.

const ENTRIES = 2_000;

/** Entry `index` of a transcript of `sessionId`: ~300 bytes, chained by parentUuid. */
const entryOf = (sessionId: string, index: number, extra: object = {}): SessionStoreEntry => ({
  type: index % 2 === 0 ? 'user' : 'assistant',
  uuid: `${sessionId.slice(0, 4)}-${String(index)}`,
  parentUuid: index === 0 ? null : `${sessionId.slice(0, 4)}-${String(index - 1)}`,
  sessionId,
  message: { role: index % 2 === 0 ? 'user' : 'assistant', content: `turn ${String(index)} ${'words '.repeat(40)}` },
  ...extra,
});

describe('claudeSdkLineage', () => {
  let data: TempDir;
  beforeEach(async () => {
    data = await makeTempDir();
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await data.remove();
  });

  it('finds forkClaudeSession and forkSession parents of long transcripts decoding only their first events', async () => {
    const store = await openSessionStore({ dir: data.path });
    const claude = createClaudeSessionStore({ store });
    const parent = { projectKey: '-work-app', sessionId: '5e55a0a0-0000-4000-8000-000000000001' };
    const sdkChild = { projectKey: parent.projectKey, sessionId: 'c0c0c0c0-0000-4000-8000-000000000003' };
    for (let at = 0; at < ENTRIES; at += 500) {
      await claude.append(
        parent,
        Array.from({ length: 500 }, (_, offset) => entryOf(parent.sessionId, at + offset)),
      );
      await claude.append(
        sdkChild,
        Array.from({ length: 500 }, (_, offset) =>
          entryOf(sdkChild.sessionId, at + offset, {
            forkedFrom: { sessionId: parent.sessionId, messageUuid: `5e55-${String(at + offset)}` },
          }),
        ),
      );
    }
    await forkClaudeSession(claude, parent, { at: `5e55-${String(ENTRIES - 10)}`, sessionId: 'f0f0f0f0-0000-4000-8000-000000000002' });
    await claude.close();
    await store.close();

    const reader = await openSessionStore({ dir: data.path });
    try {
      const listed = await reader.list();
      expect(listed).toHaveLength(3);
      const parse = vi.spyOn(JSON, 'parse');
      const forks = await claudeSdkLineage(reader, listed);
      const parses = parse.mock.calls.length;
      parse.mockRestore();

      const parentId = [...forks.values()][0]?.parentSession;
      expect(parentId).toMatch(/^claude-/);
      expect([...forks.values()].sort((a, b) => a.by.localeCompare(b.by))).toEqual([
        { parentSession: parentId, at: `5e55-${String(ENTRIES - 10)}`, by: 'forkClaudeSession' },
        { parentSession: parentId, by: 'forkSession' },
      ]);
      // Three transcripts of ~2,000 entries each: decoding them whole would parse ~6,000 lines.
      expect(parses).toBeLessThan(60);
    } finally {
      await reader.close();
    }
  });
});
