/**
 * @module sealed-session
 * The sealed session the manifest tests (`validate-manifest`, `migrate-downgrade`) read: `whole` in
 * `dir`, 7 turns of 200 kB — past 1 MiB, so its writer seals them into segments behind a V7 manifest.
 */
import type { SessionEvent } from 'dsh-codec';
import { openSessionStore } from 'dsh-host';

/** Writes session `whole` (title `sealed`) into `dir` through a real store; the events it holds. */
export async function writeSealedSession(dir: string): Promise<SessionEvent[]> {
  const store = await openSessionStore({ dir });
  const session = await store.create({ id: 'whole', title: 'sealed' });
  for (let turn = 1; turn <= 7; turn += 1) {
    session.append('turn/start', { turn });
    session.append('user/message', {
      message: { id: `u${String(turn)}`, role: 'user', content: [{ type: 'text', text: 'z'.repeat(200_000) }] },
    });
    session.append('turn/end', { turn, reason: { kind: 'completed' } });
  }
  await session.close();
  const events = (await store.inspect('whole')).events.slice();
  await store.close();
  return events;
}
