import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createHttpApp, type HttpAppOptions } from './create-http-app.js';
import { HostError } from './host-error.js';
import type { Host } from './host-types.js';

/**
 * Options of `serveHost()`. Binding anything but loopback requires a `token`; `allowedHosts` adds
 * names (besides IP literals, localhost and the bound name) that clients may use in `Host`.
 */
export type ServeOptions = HttpAppOptions & {
  /** Default `127.0.0.1`. */
  hostname?: string;
  /** Default 0 (any free port). */
  port?: number;
};

/** A listening server; `close()` stops accepting, ends open streams and resolves when closed. */
export type HostServer = { url: string; hostname: string; port: number; close(): Promise<void> };

/** Whether a bind address only accepts connections from this machine. */
export function isLoopbackAddress(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '::1' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/**
 * Serves the host's HTTP API with Node's http server. Binds 127.0.0.1 by default; refuses any other
 * address without a bearer `token` (`INVALID_OPTION`), and then requires the token on every request.
 * Every request passes the guard of `http-guard.ts` with the `Host` header checked.
 */
export async function serveHost(host: Host, options: ServeOptions = {}): Promise<HostServer> {
  const hostname = options.hostname ?? '127.0.0.1';
  if (!isLoopbackAddress(hostname) && (options.token === undefined || options.token.length < 16)) {
    throw new HostError(
      'INVALID_OPTION',
      `Refusing to bind ${hostname} without a bearer token: expected a token of at least 16 characters (or bind 127.0.0.1).`,
    );
  }
  // DNS rebinding: only the bound name, IP literals, localhost and the configured names reach the API.
  const bound = hostname.replace(/^\[|\]$/g, '');
  const allowedHosts = [...(bound === '0.0.0.0' || bound === '::' ? [] : [hostname]), ...(options.allowedHosts ?? [])];
  const app = createHttpApp(host, { ...options, allowedHosts });
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const created = serve({ fetch: app.fetch, hostname, port: options.port ?? 0 }, () => {
      resolve(created);
    });
    created.once('error', reject);
  });
  const port = (server.address() as AddressInfo).port;
  const shown = hostname.includes(':') && !hostname.startsWith('[') ? `[${hostname}]` : hostname;
  return {
    url: `http://${shown}:${port}`,
    hostname,
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => {
          if (error === undefined) resolve();
          else reject(error);
        });
        // Open SSE streams would keep close() waiting forever.
        if ('closeAllConnections' in server) server.closeAllConnections();
      }),
  };
}
