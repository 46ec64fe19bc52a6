// Issue 11, holes 2 and 3: one writer per session, for every writer — a holder in another PID
// namespace is not declared dead, and a holder that lost its lease (stopped past a takeover) adds no byte.
import { spawnSync } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeJsonl } from 'dsh-codec';
import { openSessionStore, SessionError, type SessionStore } from 'dsh-session';
import { faultTrials, makeTempDir, printSkip, reportFaults, type TempDir } from '@dsh/test-utils';
import { killAllStoreProcesses, spawnStoreProcess, type StoreProcess } from '../__fixtures__/spawn-store-process.js';

const UNSHARE = ['unshare', '--pid', '--fork', '--mount-proc', '--kill-child'];
const unshareProbe = spawnSync(UNSHARE[0] as string, [...UNSHARE.slice(1), 'true'], { stdio: 'ignore' });
const unshareReason =
  unshareProbe.error?.message ??
  (unshareProbe.status === 0 ? undefined : `unshare exited ${String(unshareProbe.status)} (needs CAP_SYS_ADMIN or user namespaces)`);

async function code(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (SessionError.is(error)) return error.code;
    throw error;
  }
  return 'ok';
}

async function openOnceFree(store: SessionStore, id: string) {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await store.open(id);
    } catch (error) {
      if (!SessionError.is(error) || error.code !== 'SESSION_BUSY' || attempt >= 200) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

type Durable = { from: number; to: number; digest: string };

/** Acknowledged ranges a writer reported; each must be in the reopened log, byte for byte. */
function acknowledged(writer: StoreProcess): Durable[] {
  return writer.messages.filter((message) => message.event === 'durable') as unknown as Durable[];
}

describe('one writer per session, for every writer', { timeout: 600_000 }, () => {
  let dir: TempDir;
  let store: SessionStore;
  beforeEach(async () => {
    dir = await makeTempDir();
    store = await openSessionStore({ dir: dir.path });
  });
  afterEach(async () => {
    await killAllStoreProcesses();
    await store.close();
    await dir.remove();
  });

  it('does not declare a holder in another PID namespace dead; takes it over once that namespace is gone', async (context) => {
    if (unshareReason !== undefined) {
      printSkip('pid-namespace', unshareReason);
      context.skip();
    }
    const trials = faultTrials(2, 10);
    let refused = 0;
    for (let trial = 0; trial < trials; trial += 1) {
      const id = `ns-${trial}`;
      // Inside the namespace the holder is pid 1 (or close): on the host that pid is someone else.
      const holder = spawnStoreProcess('write', dir.path, id, UNSHARE);
      await holder.waitFor((message) => message.event === 'durable');
      expect(await code(store.open(id))).toBe('SESSION_BUSY');
      refused += 1;
      await holder.kill9();
      // The kernel kills the namespace's processes after the wrapper (PR_SET_PDEATHSIG): wait until
      // none is left, then the lease is free — from the initial namespace, death can be known.
      const session = await openOnceFree(store, id);
      const { events } = decodeJsonl(await readFile(join(dir.path, `${id}.jsonl`), 'utf8'));
      expect(events.length).toBe(session.events.length);
      for (const range of acknowledged(holder)) expect(range.to).toBeLessThan(events.length);
      await session.close();
    }
    reportFaults('pid-namespace', { trials, refused, lost: 0 });
  });

  it('a holder stopped past a takeover writes nothing after it: the log is byte-identical once it resumes', async () => {
    const trials = faultTrials(3, 25);
    let acknowledgedEvents = 0;
    let lost = 0;
    let halfWritten = 0;
    for (let trial = 0; trial < trials; trial += 1) {
      const id = `stop-${trial}`;
      const writer = spawnStoreProcess('write', dir.path, id);
      await writer.waitFor((message) => message.event === 'durable' && (message.to as number) > 20 * (trial + 1));
      writer.child.kill('SIGSTOP');
      const stoppedAt = acknowledged(writer).length;
      // A mistaken verdict: the holder's record now names a process that does not exist, so this
      // process takes the lease over although the writer is alive (only stopped).
      const folder = join(dir.path, '.leases', id);
      const generations = (await readdir(folder))
        .filter((name) => /^\d+$/.test(name))
        .map(Number)
        .sort((a, b) => a - b);
      const newest = join(folder, String(generations.at(-1)));
      const record = JSON.parse(await readFile(newest, 'utf8')) as Record<string, unknown>;
      await writeFile(newest, JSON.stringify({ ...record, pid: 2 ** 22 + 1, start: '1' }));
      const session = await store.open(id);
      session.append('session/title', { title: `taken over ${trial}` });
      await session.flush();
      const afterTakeover = await readFile(join(dir.path, `${id}.jsonl`));
      writer.child.kill('SIGCONT');
      // The resumed writer's next batch is refused (it exits with code 3 after saying so).
      const refusal = await writer.waitFor((message) => message.event === 'refused' || message.event === 'error', 120_000);
      expect(refusal).toMatchObject({ event: 'refused', code: 'SESSION_BUSY' });
      const now = await readFile(join(dir.path, `${id}.jsonl`));
      expect(now.equals(afterTakeover)).toBe(true);
      session.append('session/title', { title: `still writable ${trial}` });
      await session.flush();
      await session.close();
      const { events, tornTail } = decodeJsonl(await readFile(join(dir.path, `${id}.jsonl`), 'utf8'));
      if (tornTail !== undefined) halfWritten += 1;
      // Every batch acknowledged before the stop is in the log unchanged.
      const reopened = await store.open(id);
      for (const range of acknowledged(writer).slice(0, stoppedAt)) {
        acknowledgedEvents += range.to - range.from + 1;
        if (range.to >= events.length) lost += range.to - range.from + 1;
      }
      await reopened.close();
      await writer.kill9();
    }
    reportFaults('sigstop-takeover', { trials, acknowledged: acknowledgedEvents, lost, halfWritten });
    expect(lost).toBe(0);
    expect(halfWritten).toBe(0);
  });
});
