/**
 * A listing of many sessions asks the thread pool nothing per session: each session's stat, header, last
 * line and summary file are small synchronous reads (as the leases are), because a thread-pool round trip
 * costs several times the read it carries (1,000 sessions: ~0.35 s of CPU instead of ~1 s). Counted through
 * `node:fs/promises`, never timed; the summaries listed are the same.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openSessionStore } from 'dsh-session';
import { makeTempDir } from '@dsh/test-utils';

const asked = vi.hoisted(() => ({ counting: false, calls: [] as string[] }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const original = await importOriginal<typeof import('node:fs/promises')>();
  const counted = <K extends 'open' | 'readFile' | 'stat' | 'lstat'>(name: K) =>
    ((...args: Parameters<(typeof original)[K]>) => {
      if (asked.counting) asked.calls.push(name);
      return (original[name] as (...a: unknown[]) => unknown)(...args);
    }) as (typeof original)[K];
  return { ...original, open: counted('open'), readFile: counted('readFile'), stat: counted('stat'), lstat: counted('lstat') };
});

const SESSIONS = 60;

describe('list() of a JSONL folder', () => {
  let dir: Awaited<ReturnType<typeof makeTempDir>>;
  beforeEach(async () => {
    dir = await makeTempDir();
  });
  afterEach(async () => {
    asked.counting = false;
    asked.calls.length = 0;
    await dir.remove();
  });

  it('reads each session’s stat, header and summary file without a thread-pool call per session', async () => {
    const writer = await openSessionStore({ dir: dir.path });
    for (let index = 0; index < SESSIONS; index++) {
      const session = await writer.create({ id: `s${String(index)}`, title: `t${String(index)}`, config: { cwd: '/w' } });
      session.append('turn/start', { turn: 1 });
      session.append('turn/end', { turn: 1, reason: { kind: 'completed' } });
      await session.close();
    }
    // The first listing writes the summary files; the one counted reads them as every later listing does.
    const expected = await writer.list();
    await writer.close();
    const store = await openSessionStore({ dir: dir.path });
    try {
      asked.counting = true;
      const listed = await store.list();
      asked.counting = false;
      expect(listed).toEqual(expected);
      expect(listed).toHaveLength(SESSIONS);
      expect(asked.calls.length, asked.calls.join(' ')).toBeLessThan(SESSIONS / 10);
    } finally {
      await store.close();
    }
  });
});
