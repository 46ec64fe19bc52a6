/**
 * @module A `dsh serve`-like process for the bounds probe: a JSONL store in `argv[2]`, a scripted
 * model that answers every turn, `serveHost` with the JSON options of `argv[3]`; prints `{ port }`
 * as one line once it listens, `{ live }` (heap and off-heap bytes after a full collection) on each
 * SIGUSR2, and stops on SIGTERM. The probe starts it under a low `ulimit -n`.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createScriptedModel } from 'dsh-agent';
import { createHost, openSessionStore, serveHost } from 'dsh-host';

const [dataDir, optionsText] = process.argv.slice(2);
const store = await openSessionStore({ dir: dataDir ?? '.' });
const host = createHost({ store, model: createScriptedModel(Array.from({ length: 10_000 }, () => ({ text: 'ok' }))) });
const server = await serveHost(host, JSON.parse(optionsText ?? '{}') as Parameters<typeof serveHost>[1]);
process.stdout.write(`${JSON.stringify({ port: server.port })}\n`);
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
process.on('SIGUSR2', () => {
  gc();
  gc();
  const usage = process.memoryUsage();
  process.stdout.write(`${JSON.stringify({ live: usage.heapUsed + usage.external })}\n`);
});
process.once('SIGTERM', () => {
  void server
    .close()
    .then(() => host.close())
    .then(() => store.close())
    .then(() => process.exit(0));
});
