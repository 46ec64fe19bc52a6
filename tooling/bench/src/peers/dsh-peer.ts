import { mkdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { CURRENT_FORMAT_VERSION, type SessionHeader } from 'dsh-codec';
import { openSessionStore, type SessionStore } from 'dsh-session';
import { timeMs } from '../harness/measure-rounds.js';
import type { PeerDriver, PeerInput } from './peer-driver.js';

/** dsh itself in the peers table: `SessionStore.fork` of a stored (cold) parent at the exact cut. */
export function dshPeer(): PeerDriver {
  let store: SessionStore | undefined;
  let input: PeerInput | undefined;
  let children = 0;
  const forkOnce = async (keep: boolean, read = false) => {
    if (!store || !input) throw new Error('dsh peer: prepare() first');
    const id = `child-${String(++children)}`;
    const { cut } = input;
    const activeStore = store;
    let child: Awaited<ReturnType<SessionStore['fork']>> | undefined;
    const ms = await timeMs(async () => {
      child = await activeStore.fork('parent', { atSeq: cut, id });
    });
    const bytes = (await stat(join(input.dir, `${id}.jsonl`))).size;
    // Only the observation reads the child's events: decoding them after a timed fork would leave the
    // next fork to pay for collecting them (the other peers' forks keep nothing either).
    const events = read ? (child?.events ?? []) : [];
    await child?.close();
    if (!keep) await activeStore.delete(id);
    return { ms, bytes, events };
  };
  return {
    name: 'dsh',
    api: '`SessionStore.fork(id, { atSeq })` (JSONL store)',
    async prepare(given) {
      input = given;
      await mkdir(given.dir, { recursive: true });
      store = await openSessionStore({ dir: given.dir });
      // Stored as a user's sessions are: written by the store, which stamps the bytes it validated.
      const header: SessionHeader = {
        format: 'dsh-session',
        version: CURRENT_FORMAT_VERSION,
        id: 'parent',
        createdAt: given.events[0]?.time ?? 0,
        inheritedEventCount: 0,
        cwd: '/home/dev/projects/dsh-demo',
      };
      await store.import({ header, events: given.events });
      return { parentBytes: (await stat(join(given.dir, 'parent.jsonl'))).size };
    },
    async fork() {
      const { ms, bytes } = await forkOnce(false);
      return { ms, bytes };
    },
    async observe() {
      const { events } = await forkOnce(false, true);
      const cut = input?.cut ?? 0;
      const tail = events.slice(cut + 1).map((event) => {
        const data = event.data as { error?: { code?: string }; reason?: { kind?: string }; inherited?: boolean };
        if (event.type === 'tool/result') return `tool/result (${data.error?.code ?? 'ok'})`;
        if (event.type === 'turn/end') return `turn/end (${data.reason?.kind ?? '?'})`;
        if (event.type === 'session/end-seed') return data.inherited === true ? 'inherited marker' : 'session/end-seed';
        return event.type;
      });
      return {
        cutAt: `event seq ${String(cut)} (\`tool/call\` of the step's first call)`,
        childEnds: `${tail.join(', ')} — stored, model-visible`,
        records: `${String(cut + 1)} inherited of ${String(input?.events.length ?? 0)} events, + ${String(tail.length)} child-owned`,
      };
    },
    async dispose() {
      await store?.close();
      if (input) await rm(input.dir, { recursive: true, force: true });
    },
  };
}
