/**
 * @module The timed steps of the fork workload: one `store.fork` (latency, child size, heap growth),
 * one fork through a host's HTTP API, and one through a host opened with its store for that fork alone.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { createHost, type Host } from 'dsh-host';
import { openSessionStore, type Session, type SessionStore } from 'dsh-session';
import { heapGrowth } from '../harness/measure-heap.js';
import { timeMs, type StepResult } from '../harness/measure-rounds.js';

/** One fork: its latency, the child file's size and (when asked) heap growth; the child is deleted after. */
export async function forkOnce(
  store: SessionStore,
  dir: string,
  parentId: string,
  childId: string,
  cut: number,
  measureHeap: boolean,
): Promise<StepResult> {
  let ms = 0;
  let child: Session | undefined;
  let heapBytes = 0;
  if (measureHeap) {
    const { bytes } = await heapGrowth(async () => {
      ms = await timeMs(async () => {
        child = await store.fork(parentId, { atSeq: cut, id: childId });
      });
      return child;
    });
    heapBytes = bytes;
  } else {
    ms = await timeMs(async () => {
      child = await store.fork(parentId, { atSeq: cut, id: childId });
    });
  }
  const bytes = (await stat(join(dir, `${childId}.jsonl`))).size;
  await child?.close();
  await store.delete(childId);
  return measureHeap ? { ms, bytes, heap: heapBytes } : { ms, bytes };
}

/** One fork through the host's HTTP API; the child is released and deleted after. */
export async function forkOverHttp(host: Host, store: SessionStore, dir: string, parentId: string, cut: number): Promise<StepResult> {
  let childId = '';
  const ms = await timeMs(async () => {
    const response = await host.fetch(
      new Request(`http://127.0.0.1/api/sessions/${parentId}/fork`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ atSeq: cut }),
      }),
    );
    const body = (await response.json()) as { sessionId?: string };
    if (response.status !== 201 || body.sessionId === undefined)
      throw new Error(`HTTP fork answered ${String(response.status)}: ${JSON.stringify(body)}`);
    childId = body.sessionId;
  });
  const bytes = (await stat(join(dir, `${childId}.jsonl`))).size;
  await host.release(childId);
  await store.delete(childId);
  return { ms, bytes };
}

/** One fork through the HTTP API of a host opened (with its store) for this fork alone; only the request is timed. */
export async function forkOverFreshHost(dir: string, parentId: string, cut: number): Promise<StepResult> {
  const store = await openSessionStore({ dir });
  const host = createHost({ store });
  try {
    return await forkOverHttp(host, store, dir, parentId, cut);
  } finally {
    await host.close();
    await store.close();
  }
}
