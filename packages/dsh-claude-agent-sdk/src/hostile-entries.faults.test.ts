// Issue 36 item 8: the Agent SDK store took any batch it was handed. An entry with a throwing getter
// or a proxy whose traps throw escaped as a raw Error, and an entry or batch of any size was stored.
// Every hostile batch here must be refused INVALID_ENTRY (a ClaudeStoreError, never another throw)
// with nothing stored; any other outcome counts an escape, anything stored a half-written batch.
import { readdir } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { ClaudeStoreError, createClaudeSessionStore, type SessionStoreEntry } from 'dsh-claude-agent-sdk';
import { faultTrials, reportFaults } from '@dsh/test-utils';
import { userEntry } from './__fixtures__/claude-store-contract.js';
import { openTempJsonlStore } from './__fixtures__/temp-jsonl-store.js';

const { dir, store, close } = await openTempJsonlStore('dsh-claude-hostile-');
const claude = createClaudeSessionStore({ store });
afterAll(async () => {
  await claude.close();
  await close();
});

const MiB = 1024 * 1024;
function throwing(): never {
  throw new Error('hostile getter');
}

/** Hostile batches, each built when its trial runs (the large ones are not kept alive together). */
const HOSTILE: [string, () => unknown][] = [
  ['a throwing getter on type', () => [Object.defineProperty({}, 'type', { get: throwing, enumerable: true })]],
  [
    'a throwing getter deep inside',
    () => [{ type: 'user', message: Object.defineProperty({}, 'content', { get: throwing, enumerable: true }) }],
  ],
  ['a proxy whose ownKeys trap throws', () => [new Proxy({ type: 'user' }, { ownKeys: throwing })]],
  ['a proxy whose getPrototypeOf trap throws', () => [new Proxy({ type: 'user' }, { getPrototypeOf: throwing })]],
  [
    'a revoked proxy',
    () => {
      const { proxy, revoke } = Proxy.revocable({ type: 'user' }, {});
      revoke();
      return [proxy];
    },
  ],
  [
    'a batch proxy whose get trap throws',
    () => new Proxy([userEntry('a', 'x')], { get: (target, key): unknown => (key === '0' ? throwing() : Reflect.get(target, key)) }),
  ],
  ['a batch of length 2^32 - 1 with holes', () => Object.assign([] as unknown[], { length: 2 ** 32 - 1 })],
  ['an entry over 64 MiB', () => [{ type: 'user', text: 'x'.repeat(65 * MiB) }]],
  // 11 Mi code units, but each written as \u0001: 66 MiB of JSON.
  ['an entry whose escapes take it over 64 MiB', () => [{ type: 'user', text: '\u0001'.repeat(11 * MiB) }]],
  [
    'a batch over 256 MiB',
    () => {
      const text = 'y'.repeat(60 * MiB);
      return Array.from({ length: 5 }, (_, index) => ({ type: 'user', uuid: `big-${String(index)}`, text }));
    },
  ],
  [
    'a thrown proxy as the error',
    () => [
      Object.defineProperty({}, 'type', {
        get: () => {
          throw new Proxy(new Error('x'), { getPrototypeOf: throwing, get: throwing });
        },
        enumerable: true,
      }),
    ],
  ],
];

describe('hostile entries handed to the Agent SDK store', () => {
  it('are refused INVALID_ENTRY with nothing stored, never a raw Error', { timeout: 600_000 }, async () => {
    const trials = faultTrials(HOSTILE.length, HOSTILE.length * 5);
    let refused = 0;
    let escapes = 0;
    let halfWritten = 0;
    const escaped: string[] = [];
    for (let index = 0; index < trials; index++) {
      const [name, build] = HOSTILE[index % HOSTILE.length] as [string, () => unknown];
      const key = { projectKey: '-work-hostile', sessionId: `h${String(index)}` };
      let outcome: string;
      try {
        await claude.append(key, build() as SessionStoreEntry[]);
        outcome = 'stored';
      } catch (error) {
        // A raw throw may be the hostile proxy itself, whose traps throw when looked at.
        try {
          outcome = ClaudeStoreError.is(error) ? error.code : 'raw error';
        } catch {
          outcome = 'raw error (a hostile value)';
        }
      }
      if (outcome === 'INVALID_ENTRY') refused += 1;
      else {
        escapes += 1;
        escaped.push(`${name}: ${outcome}`);
      }
      if ((await claude.load(key)) !== null) {
        halfWritten += 1;
        await claude.delete(key);
      }
    }
    const files = (await readdir(dir.path)).filter((name) => !name.startsWith('.'));
    reportFaults('claude-store-hostile-entries', { trials, acknowledged: refused, escapes, halfWritten });
    expect({ refused, escapes, halfWritten, escaped, files }).toEqual({
      refused: trials,
      escapes: 0,
      halfWritten: 0,
      escaped: [],
      files: [],
    });
  });

  it('a key whose getter or proxy trap throws is INVALID_KEY, never a raw Error', async () => {
    const { proxy, revoke } = Proxy.revocable({ projectKey: '-work-hostile', sessionId: 'k' }, {});
    revoke();
    const keys = [Object.defineProperty({ sessionId: 'k' }, 'projectKey', { get: throwing, enumerable: true }), proxy];
    for (const key of keys) {
      const codes = await Promise.all(
        [claude.append(key as never, [userEntry('a', 'x')]), claude.load(key as never), claude.delete(key as never)].map((action) =>
          action.then(
            () => 'resolved',
            (error: unknown) => (ClaudeStoreError.is(error) ? error.code : 'raw error'),
          ),
        ),
      );
      expect(codes).toStrictEqual(['INVALID_KEY', 'INVALID_KEY', 'INVALID_KEY']);
    }
  });

  it('reads a stateful getter once: what is stored is what was checked', async () => {
    const key = { projectKey: '-work-hostile', sessionId: 'stateful' };
    let reads = 0;
    const entry = Object.defineProperty({ uuid: 's1' }, 'type', { get: () => (reads++ < 2 ? 'user' : 42), enumerable: true });
    await claude.append(key, [entry as unknown as SessionStoreEntry]);
    expect(await claude.load(key)).toEqual([{ uuid: 's1', type: 'user' }]);
    await claude.delete(key);
  });
});
