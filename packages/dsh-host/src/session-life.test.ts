// SPEC §27: live sessions are bounded and come back. A session whose agent stopped (its lease was lost)
// is released by the host, so the next request reopens it instead of answering AGENT_CLOSED forever.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createScriptedModel } from 'dsh-agent';
import { openSessionStore } from 'dsh-session';
import { makeTempDir } from '@dsh/test-utils';
import { createHost, HostError } from 'dsh-host';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function jsonlDir(): Promise<string> {
  const dir = await makeTempDir();
  cleanups.push(() => dir.remove());
  return dir.path;
}

/** Makes the newest lease record of `id` name a process that does not exist, as a mistaken verdict would. */
async function markHolderDead(dir: string, id: string): Promise<void> {
  const folder = join(dir, '.leases', id);
  const generations = (await readdir(folder))
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .sort((a, b) => a - b);
  const newest = join(folder, String(generations.at(-1)));
  const record = JSON.parse(await readFile(newest, 'utf8')) as Record<string, unknown>;
  await writeFile(newest, JSON.stringify({ ...record, pid: 2 ** 22 + 1, start: '1' }));
}

describe('a live session that lost its lease', () => {
  it('is released by the host: the next request after the other writer left reopens it and its input runs', async () => {
    const dir = await jsonlDir();
    const store = await openSessionStore({ dir });
    const host = createHost({ store, model: createScriptedModel([{ text: 'one' }, { text: 'two' }, { text: 'three' }]) });
    cleanups.push(async () => {
      await host.close().catch(() => undefined);
      await store.close();
    });
    const { sessionId } = await host.create({ id: 'taken' });
    const first = await host.send(sessionId, 'hello');
    expect((await host.turnResult(sessionId, first.inputId)).result).toBe('one');

    // Another writer takes the session over (its holder judged dead), writes, and leaves.
    await markHolderDead(dir, sessionId);
    const other = await openSessionStore({ dir });
    const taken = await other.open(sessionId);
    taken.append('session/title', { title: 'written elsewhere' });
    await taken.flush();
    const lost = await host.send(sessionId, 'refused: the lease is lost');
    await expect(host.turnResult(sessionId, lost.inputId)).rejects.toMatchObject({ code: 'AGENT_CLOSED' });
    // While the other writer holds it, reopening is refused naming the holder.
    await expect(host.send(sessionId, 'still held')).rejects.toMatchObject({ code: 'SESSION_BUSY' });
    await taken.close();
    await other.close();

    const again = await host.send(sessionId, 'after the other writer left');
    expect((await host.turnResult(sessionId, again.inputId)).result).toBe('two');
    const { events } = await host.observe(sessionId);
    expect(events.some((event) => event.type === 'session/title')).toBe(true);
    expect(HostError.is(await host.idle(sessionId).catch((error: unknown) => error))).toBe(false);
  });
});
