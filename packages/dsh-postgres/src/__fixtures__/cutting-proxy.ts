/**
 * A TCP proxy in front of a real PostgreSQL server that can lose one reply: armed with a marker, it
 * forwards the client's message holding it, then — instead of forwarding the server's answer —
 * cuts both connections. The server has done the work (for a statement in its own transaction, the
 * reply comes after the commit); the client only sees its connection end: a commit in doubt. It can
 * also play a database outage: every connection cut and new ones refused until it is over.
 */
import { connect, createServer, type Socket } from 'node:net';

export type CuttingProxy = {
  /** `url` with its host and port replaced by the proxy's. */
  via(url: string): string;
  /** Arms the proxy: resolves once a reply to a client message holding `marker` was dropped and the connection cut. */
  cutReplyTo(marker: string): Promise<void>;
  /** An outage: cuts every connection and refuses new ones until `restore()`. */
  outage(): void;
  restore(): void;
  close(): Promise<void>;
};

export async function startCuttingProxy(url: string): Promise<CuttingProxy> {
  const target = new URL(url);
  const sockets = new Set<Socket>();
  let armed: { marker: Buffer; cut: () => void } | undefined;
  let down = false;
  const server = createServer((client) => {
    if (down) {
      client.destroy();
      return;
    }
    const upstream = connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    let awaitingReply = false;
    client.on('data', (chunk) => {
      if (armed !== undefined && chunk.includes(armed.marker)) awaitingReply = true;
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (!awaitingReply) {
        client.write(chunk);
        return;
      }
      const cut = armed?.cut;
      armed = undefined;
      client.destroy();
      upstream.destroy();
      cut?.();
    });
    const end = (): void => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    via(base) {
      const proxied = new URL(base);
      proxied.hostname = '127.0.0.1';
      proxied.port = String(port);
      return proxied.toString();
    },
    outage() {
      down = true;
      for (const socket of sockets) socket.destroy();
    },
    restore() {
      down = false;
    },
    cutReplyTo(marker) {
      return new Promise<void>((resolve) => {
        armed = { marker: Buffer.from(marker), cut: resolve };
      });
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
      });
    },
  };
}
