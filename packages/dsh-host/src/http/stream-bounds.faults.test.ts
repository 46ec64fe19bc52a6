// The stream attacks of issue 22 against a served host on a real port: more event streams than the
// server allows (the extra one must be a typed 503, never a dead server), and clients that open a
// stream and never read while the session streams megabytes (they must be cut off at the bound, and
// the server's live memory must not grow with them).
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedModel } from 'dsh-agent';
import { createHost, openSessionStore, serveHost, type Host, type HostServer, type SessionStore } from 'dsh-host';
import { faultTrials, makeTempDir, reportFaults, type TempDir } from '@dsh/test-utils';

const MIB = 1024 * 1024;

let dir: TempDir;
let store: SessionStore;
let host: Host;
const servers: HostServer[] = [];
const figures = { trials: 0, status5xx: 0, refused: 0, unbounded: 0, cutOff: 0 };

beforeAll(async () => {
  dir = await makeTempDir();
  store = await openSessionStore({ dir: dir.path });
  host = createHost({ store, model: createScriptedModel(Array.from({ length: 400 }, () => ({ text: 'ok' }))) });
});

afterAll(async () => {
  reportFaults('stream-bounds', figures);
  for (const server of servers) await server.close();
  await host.close();
  await store.close();
  await dir.remove();
});

async function serve(options: Parameters<typeof serveHost>[1]): Promise<HostServer> {
  const server = await serveHost(host, options);
  servers.push(server);
  return server;
}

type Opened = { request: ClientRequest; response: IncomingMessage; status: number; code: string | undefined };

/** Opens `GET path`; a 200 stream is kept open (and drained), any other answer is read to its end. */
function open(server: HostServer, path: string): Promise<Opened> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: '127.0.0.1', port: server.port, path }, (response) => {
      const status = response.statusCode ?? 0;
      if (status === 200 && String(response.headers['content-type']).startsWith('text/event-stream')) {
        response.resume();
        resolve({ request, response, status, code: undefined });
        return;
      }
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => {
        const code = text === '' ? undefined : (JSON.parse(text) as { error?: { code?: string } }).error?.code;
        resolve({ request, response, status, code });
      });
    });
    request.on('error', reject);
    request.end();
  });
}

/** Counts an answer: any 5xx but the documented refusal of one stream too many is a failure. */
function tally(answer: Opened, streamRequest: boolean): void {
  if (answer.status >= 500 && !(streamRequest && answer.status === 503 && answer.code === 'TOO_MANY_STREAMS')) figures.status5xx += 1;
  if (answer.status === 503) figures.refused += 1;
}

function closed(request: ClientRequest): Promise<void> {
  return new Promise((resolve) => {
    request.once('close', resolve);
    request.destroy();
  });
}

describe('the SSE cap on a served host', { timeout: 300_000 }, () => {
  it('answers one stream over --max-streams with 503 TOO_MANY_STREAMS and Retry-After, keeps every other route working, and takes a new stream once one closes', async () => {
    const max = 8;
    const server = await serve({ maxStreams: max });
    const { sessionId } = await host.create({ title: 'cap' });
    const path = `/api/sessions/${sessionId}/events`;
    const streams: Opened[] = [];
    for (let index = 0; index < max; index += 1) streams.push(await open(server, path));
    for (const stream of streams) tally(stream, true);
    expect(streams.map((stream) => stream.status)).toEqual(Array.from({ length: max }, () => 200));
    for (let round = 0; round < faultTrials(3, 20); round += 1) {
      figures.trials += 1;
      const extra = await open(server, path);
      tally(extra, true);
      expect([extra.status, extra.code]).toEqual([503, 'TOO_MANY_STREAMS']);
      expect(extra.response.headers['retry-after']).toMatch(/^\d+$/);
      for (const other of ['/api/sessions', `/api/sessions/${sessionId}`, `/api/sessions/${sessionId}/lineage`, '/api/openapi.json']) {
        const answer = await open(server, other);
        tally(answer, false);
        expect(answer.status, other).toBe(200);
      }
      // Close one stream; the server frees its slot when it sees the socket close, so ask until it does.
      await closed(streams.shift()!.request);
      let next = await open(server, path);
      while (next.status === 503 && next.code === 'TOO_MANY_STREAMS') {
        await new Promise((resolve) => setTimeout(resolve, 20));
        next = await open(server, path);
      }
      tally(next, true);
      expect(next.status).toBe(200);
      streams.push(next);
    }
    for (const stream of streams) await closed(stream.request);
    expect(figures.status5xx).toBe(0);
  });
});

/** Live heap and off-heap bytes after a full collection: what the process really holds. */
const liveBytes = (() => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  return (): number => {
    gc();
    gc();
    const usage = process.memoryUsage();
    return usage.heapUsed + usage.external;
  };
})();

type StalledReader = { resume(lastSeq: number): Promise<{ bytes: number; sawLast: boolean }> };

/** A raw TCP client that sends the stream request, waits for the 200 headers, then stops reading. */
function stalledReader(server: HostServer, path: string): Promise<StalledReader> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1');
    let head = '';
    let tail = '';
    let bytes = 0;
    let paused = false;
    let lastId: string | undefined;
    let finish: ((sawLast: boolean) => void) | undefined;
    let closedEarly = false;
    socket.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      tail = (tail + chunk.toString('latin1')).slice(-8192);
      if (!paused) {
        head += chunk.toString('latin1');
        if (!head.includes('\r\n\r\n')) return;
        if (!head.startsWith('HTTP/1.1 200')) reject(new Error(`stream refused: ${head.slice(0, 200)}`));
        paused = true;
        socket.pause();
        resolve({ resume });
      }
      if (lastId !== undefined && tail.includes(`\nid: ${lastId}\n`)) finish?.(true);
    });
    // The server cuts a stalled stream off by destroying its socket: EOF or a reset, both are its end.
    socket.on('close', () => {
      if (finish === undefined) closedEarly = true;
      else finish(false);
    });
    socket.on('error', (error) => {
      if (!paused) reject(error);
    });
    const resume = (lastSeq: number): Promise<{ bytes: number; sawLast: boolean }> =>
      new Promise((done) => {
        lastId = String(lastSeq);
        finish = (sawLast) => {
          finish = undefined;
          socket.destroy();
          done({ bytes, sawLast });
        };
        if (closedEarly) finish(false);
        else socket.resume();
      });
    socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${String(server.port)}\r\nAccept: text/event-stream\r\n\r\n`);
  });
}

/** Sends messages of `size` bytes until the session has grown by `total` bytes of events. */
async function produce(sessionId: string, size: number, total: number): Promise<void> {
  for (let sent = 0; sent < total; sent += size) {
    await host.send(sessionId, 'z'.repeat(size - 16) + String(sent).padStart(16, '0'));
    await host.idle(sessionId);
  }
}

describe('stalled SSE readers on a served host', { timeout: 600_000 }, () => {
  it('cuts off every client that stops reading once the bound is buffered, and live memory does not grow with them', async () => {
    const cap = MIB;
    const readers = faultTrials(6, 16);
    const server = await serve({ maxBufferedBytes: cap });
    const { sessionId } = await host.create({ title: 'stalled' });
    // What the session itself costs per byte it streams, measured without readers.
    const calibration = 8 * MIB;
    const before = liveBytes();
    await produce(sessionId, MIB, calibration);
    const perByte = Math.max(0, liveBytes() - before) / calibration;

    const path = `/api/sessions/${sessionId}/events?from=${String((await host.observe(sessionId)).events.length)}`;
    const stalled: StalledReader[] = [];
    for (let index = 0; index < readers; index += 1) stalled.push(await stalledReader(server, path));
    // Far more than the loopback socket buffers can absorb, so each stream really holds data.
    const streamed = 32 * MIB;
    const start = liveBytes();
    await produce(sessionId, MIB / 4, streamed);
    const grown = liveBytes() - start;
    const allowed = perByte * streamed + readers * (cap + MIB) + 32 * MIB;
    figures.trials += readers;
    if (grown > allowed) figures.unbounded += 1;
    process.stdout.write(
      `stalled readers: ${String(readers)}, streamed ${String(streamed / MIB)} MiB, live memory grew ${(grown / MIB).toFixed(1)} MiB (allowed ${(allowed / MIB).toFixed(1)} MiB)\n`,
    );

    const lastSeq = (await host.observe(sessionId)).events.at(-1)!.seq;
    for (const reader of stalled) {
      // Read now: a stream still open delivers every event up to the last; one cut off ends before it.
      const { bytes, sawLast } = await reader.resume(lastSeq);
      const cut = !sawLast && bytes < streamed;
      if (cut) figures.cutOff += 1;
      expect(cut, `a stalled reader got ${String(bytes)} bytes`).toBe(true);
    }
    expect(grown, `live memory grew ${String(grown)} bytes with ${String(readers)} stalled readers`).toBeLessThanOrEqual(allowed);
    // The slots of the cut-off streams are free again: a reader that reads gets the whole stream.
    const fresh = await open(server, `/api/sessions/${sessionId}/events?from=${String(lastSeq)}`);
    tally(fresh, true);
    expect(fresh.status).toBe(200);
    await closed(fresh.request);
  });
});
