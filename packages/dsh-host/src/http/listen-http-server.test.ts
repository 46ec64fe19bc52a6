import { createServer, get } from 'node:http';
import { describe, expect, test } from 'vitest';
import { listenHttpServer } from './listen-http-server.js';
import { whenLauncherExits } from './when-launcher-exits.js';

describe('listenHttpServer', () => {
  test('binds a free port, and close() resolves although a response is still streaming', async () => {
    const server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(': open\n\n');
    });
    const listening = await listenHttpServer(server, '127.0.0.1', 0);
    expect(listening.port).toBeGreaterThan(0);
    const opened = new Promise<void>((resolve) => {
      get(`http://127.0.0.1:${String(listening.port)}/`, (response) => {
        response.once('data', () => {
          resolve();
        });
        response.on('error', () => undefined);
      }).on('error', () => undefined);
    });
    await opened;
    await listening.close();
    expect(server.listening).toBe(false);
  });

  test('rejects with the bind error when the port is taken', async () => {
    const first = await listenHttpServer(createServer(), '127.0.0.1', 0);
    try {
      await expect(listenHttpServer(createServer(), '127.0.0.1', first.port)).rejects.toMatchObject({ code: 'EADDRINUSE' });
    } finally {
      await first.close();
    }
  });
});

describe('whenLauncherExits', () => {
  test('watches nothing outside a package-manager script', () => {
    let called = false;
    const stop = whenLauncherExits(
      () => {
        called = true;
      },
      {},
      1,
    );
    stop();
    expect(called).toBe(false);
  });
});
