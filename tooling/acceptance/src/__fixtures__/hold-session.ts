/**
 * A separate process that holds one session of a JSONL store open (its single-writer lease) until
 * its stdin closes. Prints one JSON line `{ "ready": true, "pid": N }` once it holds the session.
 */
import { openSessionStore } from 'dsh-session';

const [dir, id] = process.argv.slice(2);
if (dir === undefined || id === undefined) throw new Error('usage: hold-session DIR ID');
const store = await openSessionStore({ dir });
const session = (await store.has(id)) ? await store.open(id) : await store.create({ id, title: 'held' });
await session.flush();
process.stdout.write(`${JSON.stringify({ ready: true, pid: process.pid })}\n`);
process.stdin.resume();
process.stdin.on('end', () => {
  void store.close().then(() => process.exit(0));
});
