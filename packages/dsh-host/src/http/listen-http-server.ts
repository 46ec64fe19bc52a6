/**
 * @module listen-http-server
 * Listening and closing a Node HTTP server, for `serveHost` and the demo's server alike: `listen`
 * resolves once bound (or rejects with the bind error), and `close()` also ends open connections,
 * since open SSE streams would otherwise keep it waiting forever.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Binds `server` to `hostname:port` (port 0: any free port) → the bound port and a `close()`. */
export async function listenHttpServer(
  server: Server,
  hostname: string,
  port: number,
): Promise<{ port: number; close: () => Promise<void> }> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, hostname, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => {
          if (error === undefined) resolve();
          else reject(error);
        });
        // Open SSE streams would keep close() waiting forever.
        server.closeAllConnections();
      }),
  };
}
