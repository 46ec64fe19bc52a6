/**
 * @module `servedHost(cleanups, options?, answer?)`: a host over a memory store with a one-answer
 * scripted model, served on a real Node listener; its closes are pushed onto the test's `cleanups`.
 */
import { createScriptedModel } from 'dsh-agent';
import { createMemoryStore } from 'dsh-session';
import { createHost, serveHost, type Host, type HostServer } from 'dsh-host';

export async function servedHost(
  cleanups: (() => Promise<void>)[],
  options: Parameters<typeof serveHost>[1] = {},
  answer = 'ok',
): Promise<{ host: Host; server: HostServer }> {
  const store = createMemoryStore();
  const host = createHost({ store, model: createScriptedModel([{ text: answer }]) });
  cleanups.push(async () => {
    await host.close();
    await store.close();
  });
  const server = await serveHost(host, options);
  cleanups.push(() => server.close());
  return { host, server };
}
