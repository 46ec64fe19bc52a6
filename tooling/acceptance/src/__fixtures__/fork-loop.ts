/**
 * A separate process that forks one stored session again and again (children `c0`, `c1`, …, each at
 * the source's last seq) until it is killed. Prints `{ "forked": N }` after each child is returned.
 */
import { openSessionStore } from 'dsh-session';

const [dir, sourceId] = process.argv.slice(2);
if (dir === undefined || sourceId === undefined) throw new Error('usage: fork-loop DIR SOURCE');
const store = await openSessionStore({ dir });
const { events } = await store.inspect(sourceId);
for (let index = 0; index < 10_000; index += 1) {
  const child = await store.fork(sourceId, { atSeq: events.length - 1, id: `c${String(index)}` });
  await child.close();
  process.stdout.write(`${JSON.stringify({ forked: index })}\n`);
}
await store.close();
