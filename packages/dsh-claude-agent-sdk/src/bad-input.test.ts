import { readdir } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { createClaudeSessionStore, type SessionKey, type SessionStoreEntry } from 'dsh-claude-agent-sdk';
import { claudeRefusal } from './__fixtures__/claude-refusal.js';
import { userEntry } from './__fixtures__/claude-store-contract.js';
import { openTempJsonlStore } from './__fixtures__/temp-jsonl-store.js';

const { dir, store, close } = await openTempJsonlStore('dsh-claude-bad-');
const claude = createClaudeSessionStore({ store });
afterAll(async () => {
  await claude.close();
  await close();
});

async function storedFiles(): Promise<string[]> {
  return (await readdir(dir.path)).filter((name) => !name.startsWith('.'));
}

const good = { projectKey: '-work-app', sessionId: 'b0b0' };
const badKeys: [string, unknown][] = [
  ['an empty projectKey', { ...good, projectKey: '' }],
  ['a projectKey ".."', { ...good, projectKey: '..' }],
  ['a projectKey with "/"', { ...good, projectKey: '../../etc' }],
  ['a projectKey with NUL', { ...good, projectKey: 'a\u0000b' }],
  ['a projectKey with a backslash', { ...good, projectKey: '..\\up' }],
  ['an empty sessionId', { ...good, sessionId: '' }],
  ['a sessionId "."', { ...good, sessionId: '.' }],
  ['a sessionId with "/"', { ...good, sessionId: 'a/b' }],
  ['a sessionId with a newline', { ...good, sessionId: 'a\nb' }],
  ['a sessionId that is a number', { ...good, sessionId: 7 }],
  ['an empty subpath', { ...good, subpath: '' }],
  ['a subpath with ".."', { ...good, subpath: 'subagents/../../x' }],
  ['an absolute subpath', { ...good, subpath: '/etc/passwd' }],
  ['a subpath with an empty segment', { ...good, subpath: 'subagents//agent' }],
  ['a subpath with NUL', { ...good, subpath: 'subagents/agent\u0000' }],
  ['a projectKey of 1025 characters', { ...good, projectKey: 'p'.repeat(1025) }],
  ['no key at all', null],
];

describe('bad input is refused with a typed error before anything is stored', () => {
  it.each(badKeys)('%s: INVALID_KEY from append, load, listSubkeys and delete; no file or row appears', async (_name, key) => {
    for (const action of [
      claude.append(key as SessionKey, [userEntry('u', 'x')]),
      claude.load(key as SessionKey),
      claude.listSubkeys(key as SessionKey),
      claude.delete(key as SessionKey),
    ]) {
      const error = await claudeRefusal(action);
      expect(error.code).toBe('INVALID_KEY');
      expect(error.message).toMatch(/^Invalid session key: expected .+, received .+\.$/);
    }
    expect(await storedFiles()).toEqual([]);
  });

  it('listSessions refuses a path-like projectKey too', async () => {
    expect((await claudeRefusal(claude.listSessions('a/b'))).code).toBe('INVALID_KEY');
    expect((await claudeRefusal(claude.listSessionSummaries(''))).code).toBe('INVALID_KEY');
  });

  it('accepts the keys the SDK really uses: a sanitized cwd, a uuid, subagents/agent-<id>', async () => {
    const key = { projectKey: '-work-my-app', sessionId: '0b9f6e7a-3c1d-4d2e-9f00-1234567890ab', subpath: 'subagents/agent-a1b2c3' };
    await claude.append(key, [userEntry('ok', 'fine')]);
    expect(await claude.load(key)).toEqual([userEntry('ok', 'fine')]);
    await claude.delete({ projectKey: key.projectKey, sessionId: key.sessionId });
  });

  const badEntries: [string, unknown[]][] = [
    ['null', [null]],
    ['a string', ['{"type":"user"}']],
    ['an array', [['type', 'user']]],
    ['an object without type', [{ uuid: 'x' }]],
    ['a numeric type', [{ type: 3 }]],
    ['a numeric uuid', [{ type: 'user', uuid: 5 }]],
    ['a Date', [new Date(0)]],
    [
      'a class instance',
      [
        new (class Entry {
          type = 'user';
        })(),
      ],
    ],
    ['NaN inside', [{ type: 'user', value: Number.NaN }]],
    ['a bigint inside', [{ type: 'user', value: 1n }]],
  ];

  it.each(badEntries)('an entry that is %s: INVALID_ENTRY, and no entry of its batch is stored', async (_name, entries) => {
    const key = { projectKey: '-work-entries', sessionId: 'e1' };
    const error = await claudeRefusal(claude.append(key, [userEntry('before', 'valid first'), ...(entries as never[])]));
    expect(error.code).toBe('INVALID_ENTRY');
    expect(error.message).toMatch(/^Invalid entry at index 1 of the batch: expected .+, received .+; nothing of the batch was stored\.$/);
    expect(await claude.load(key)).toBeNull();
    expect(await storedFiles()).toEqual([]);
  });

  it('a batch that is not an array is INVALID_ENTRY', async () => {
    expect((await claudeRefusal(claude.append(good, { type: 'user' } as never))).code).toBe('INVALID_ENTRY');
  });

  it('load hands out mutable copies, an own "__proto__" member included, and the stored entries stay as they were', async () => {
    const key = { projectKey: '-work-entries', sessionId: 'copies' };
    const stored = JSON.parse(
      '{"type":"user","uuid":"p1","__proto__":{"polluted":true},"message":{"content":[{"type":"text","text":"hi"}]}}',
    ) as SessionStoreEntry;
    await claude.append(key, [stored]);
    const [first] = (await claude.load(key)) ?? [];
    expect(Object.getPrototypeOf(first)).toBe(Object.prototype);
    expect(Object.hasOwn(first ?? {}, '__proto__')).toBe(true);
    expect(JSON.stringify(first)).toBe(JSON.stringify(stored));
    ((first?.message as { content: { text: string }[] }).content[0] as { text: string }).text = 'changed by the caller';
    const [again] = (await claude.load(key)) ?? [];
    expect(JSON.stringify(again)).toBe(JSON.stringify(stored));
    await claude.delete(key);
  });

  it('stores entries the way the SDK JSONL round trip leaves them (undefined members dropped, -0 as 0)', async () => {
    const key = { projectKey: '-work-entries', sessionId: 'round-trip' };
    await claude.append(key, [{ type: 'user', uuid: 'rt', gone: undefined, zero: -0 }]);
    const [entry] = (await claude.load(key)) ?? [];
    expect(Object.is(entry?.zero, 0)).toBe(true);
    expect(entry === undefined ? [] : Object.keys(entry)).toEqual(['type', 'uuid', 'zero']);
    await claude.delete(key);
  });
});
