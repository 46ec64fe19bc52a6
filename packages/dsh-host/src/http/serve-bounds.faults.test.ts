// The local-client attacks of issue 36 (items 4 and 10) against a served host in its own process
// under a low descriptor limit, as `dsh serve` runs: more idle connections than it has descriptors,
// refusals that must close their connection, slow bodies of tens of MiB, and SSE readers that stop
// reading while the session streams tens of MiB. After each, a fresh
// client must still get its answer and a live session must still run a turn, with the server's
// resident memory bounded.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { faultTrials, makeTempDir, printSkip, reportFaults, type TempDir } from '@dsh/test-utils';

const MIB = 1024 * 1024;
/** The probe reads a process's memory from `/proc` and limits its descriptors with `sh`'s `ulimit`. */
const RUNNABLE = existsSync('/proc/self/status') && existsSync('/bin/sh');
if (!RUNNABLE) printSkip('serve-bounds', 'needs Linux /proc and /bin/sh');
/** Generous: an answer that takes this long never came (a healthy server answers in milliseconds). */
const DEADLINE_MS = 60_000;

const figures = { trials: 0, status5xx: 0, unanswered: 0, turnsRun: 0, keptAlive: 0, unbounded: 0, bodiesRssMiB: 0, streamsLiveMiB: 0 };
const dirs: TempDir[] = [];
const children: ChildProcess[] = [];
const sockets: Socket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const child of children.splice(0)) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
});

afterAll(async () => {
  reportFaults('serve-bounds', figures);
  for (const dir of dirs) await dir.remove();
});

type Served = { port: number; pid: number; stderr: () => string; live: () => Promise<number> };

/** Starts the probe server in its own process with `ulimit -n nofile` (soft and hard). */
async function startServer(nofile: number, options: Record<string, unknown> = {}): Promise<Served> {
  const dir = await makeTempDir();
  dirs.push(dir);
  const script = join(import.meta.dirname, '..', '__fixtures__', 'serve-probe-process.ts');
  const child = spawn(
    'sh',
    [
      '-c',
      `ulimit -n ${String(nofile)} && exec "$0" "$@"`,
      process.execPath,
      '--conditions=@dsh/source',
      '--import',
      'tsx',
      script,
      dir.path,
      JSON.stringify(options),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.push(child);
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-8192);
  });
  const lines = createInterface({ input: child.stdout });
  const port = await new Promise<number>((resolve, reject) => {
    lines.once('line', (line) => {
      resolve((JSON.parse(line) as { port: number }).port);
    });
    child.once('exit', (code) => {
      reject(new Error(`probe server exited ${String(code)}: ${stderr}`));
    });
  });
  // The server's live memory (after a full collection), asked for with SIGUSR2.
  const live = (): Promise<number> =>
    new Promise((resolve) => {
      lines.once('line', (line) => {
        resolve((JSON.parse(line) as { live: number }).live);
      });
      child.kill('SIGUSR2');
    });
  return { port, pid: child.pid!, stderr: () => stderr, live };
}

/** Resident memory of a process in bytes (Linux `/proc`). */
function rssOf(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${String(pid)}/status`, 'utf8'));
  return Number(match?.[1] ?? 0) * 1024;
}

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; text: string };

/** One request on a fresh connection; rejects when no answer comes within the deadline. */
function send(port: number, method: string, path: string, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      { host: '127.0.0.1', port, method, path, agent: false, headers: { 'content-type': 'application/json', connection: 'close' } },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => {
          clearTimeout(timer);
          resolve({ status: response.statusCode ?? 0, headers: response.headers, text });
        });
      },
    );
    const timer = setTimeout(() => {
      outgoing.destroy(new Error(`no answer to ${method} ${path} within ${String(DEADLINE_MS)} ms`));
    }, DEADLINE_MS);
    outgoing.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    outgoing.end(body);
  });
}

/** Whether a fresh client is answered and a live session runs one more turn; counts the outcome. */
async function stillServes(served: Served, sessionId: string): Promise<void> {
  figures.trials += 1;
  let listed: Answer;
  try {
    listed = await send(served.port, 'GET', '/api/sessions');
  } catch (error) {
    figures.unanswered += 1;
    throw error;
  }
  if (listed.status >= 500) figures.status5xx += 1;
  expect(listed.status, listed.text).toBe(200);
  const before = (JSON.parse((await send(served.port, 'GET', `/api/sessions/${sessionId}`)).text) as { events: unknown[] }).events.length;
  const accepted = await send(served.port, 'POST', `/api/sessions/${sessionId}/messages`, JSON.stringify({ text: 'still there?' }));
  if (accepted.status >= 500) figures.status5xx += 1;
  expect(accepted.status, accepted.text).toBe(202);
  for (;;) {
    const answer = await send(served.port, 'GET', `/api/sessions/${sessionId}`);
    expect(answer.status, answer.text).toBe(200);
    const observation = JSON.parse(answer.text) as { events: { type: string }[]; pendingInputs: unknown[] };
    const tail = observation.events.slice(before);
    if (observation.pendingInputs.length === 0 && tail.some((event) => event.type === 'turn/end')) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  figures.turnsRun += 1;
}

async function liveSession(served: Served): Promise<string> {
  const created = await send(served.port, 'POST', '/api/sessions', JSON.stringify({ title: 'live' }));
  expect(created.status, created.text).toBe(201);
  const { sessionId } = JSON.parse(created.text) as { sessionId: string };
  await stillServes(served, sessionId);
  return sessionId;
}

/** Opens a TCP connection that never sends a byte; resolves once connected (or refused). */
function idleConnection(port: number): Promise<void> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    sockets.push(socket);
    socket.on('error', () => undefined);
    socket.once('connect', () => {
      resolve();
    });
    socket.once('close', () => {
      resolve();
    });
  });
}

type RawAnswer = { head: string; closedByServer: boolean };

/** Writes `text` on a raw connection and reads until the server closes it (or the deadline). */
function rawExchange(port: number, text: string): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    sockets.push(socket);
    let received = '';
    const finish = (closedByServer: boolean): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ head: received.split('\r\n\r\n')[0] ?? '', closedByServer });
    };
    const timer = setTimeout(() => {
      finish(false);
    }, DEADLINE_MS);
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', () => undefined);
    socket.once('end', () => {
      finish(true);
    });
    socket.once('close', () => {
      finish(true);
    });
    socket.write(text);
  });
}

describe.skipIf(!RUNNABLE)('dsh serve under hostile local clients', { timeout: 600_000 }, () => {
  it('answers a fresh client and runs a live session turn while more idle connections are open than it has descriptors', async () => {
    const nofile = 256;
    const served = await startServer(nofile);
    const sessionId = await liveSession(served);
    const idle = faultTrials(2 * nofile, 1100);
    for (let index = 0; index < idle; index += 1) await idleConnection(served.port);
    await stillServes(served, sessionId);
    // The idle ones keep coming: the server still serves with all of them (re)opened.
    for (let index = 0; index < idle; index += 1) await idleConnection(served.port);
    await stillServes(served, sessionId);
    expect(figures.unanswered).toBe(0);
  });

  it('answers every refusal with Connection: close and closes the connection', async () => {
    const served = await startServer(1024, { maxStreams: 1 });
    const { sessionId } = JSON.parse((await send(served.port, 'POST', '/api/sessions', '{}')).text) as { sessionId: string };
    const host = `Host: 127.0.0.1:${String(served.port)}\r\n`;
    const stream = connect(served.port, '127.0.0.1');
    sockets.push(stream);
    await new Promise((resolve) => {
      stream.once('data', resolve);
      stream.write(`GET /api/sessions/${sessionId}/events HTTP/1.1\r\n${host}\r\n`);
    });
    const refusals: [string, string, number][] = [
      [
        '413 (body over the limit, not sent)',
        `POST /api/sessions HTTP/1.1\r\n${host}Content-Type: application/json\r\nContent-Length: ${String(4 * MIB)}\r\n\r\n`,
        413,
      ],
      ['400 (malformed Host)', 'GET /api/sessions HTTP/1.1\r\nHost: a b\r\n\r\n', 400],
      ['403 (rebinding Host)', 'GET /api/sessions HTTP/1.1\r\nHost: attacker.example\r\n\r\n', 403],
      ['415 (not JSON)', `POST /api/sessions HTTP/1.1\r\n${host}Content-Type: text/plain\r\nContent-Length: 2\r\n\r\n{}`, 415],
      ['503 (one stream too many)', `GET /api/sessions/${sessionId}/events HTTP/1.1\r\n${host}\r\n`, 503],
    ];
    for (const [name, text, status] of refusals) {
      figures.trials += 1;
      const answer = await rawExchange(served.port, text);
      const keptAlive = !/\r\nconnection: close/i.test(answer.head) || !answer.closedByServer;
      if (keptAlive) figures.keptAlive += 1;
      expect(answer.head.split('\r\n')[0], name).toBe(`HTTP/1.1 ${String(status)} ${statusText(status)}`);
      expect(answer.head, name).toMatch(/\r\nconnection: close/i);
      expect(answer.closedByServer, name).toBe(true);
    }
  });

  it('keeps its memory bounded and its live session running under slow bodies of 29 MiB', async () => {
    const served = await startServer(1024);
    const sessionId = await liveSession(served);
    const before = rssOf(served.pid);
    const bodies = faultTrials(10, 30);
    const declared = 29 * MIB;
    const sent = 28 * MIB;
    const chunk = Buffer.alloc(MIB, 'a');
    const writers = Array.from(
      { length: bodies },
      () =>
        new Promise<void>((resolve) => {
          const socket = connect(served.port, '127.0.0.1');
          sockets.push(socket);
          socket.on('error', () => {
            resolve();
          });
          socket.once('close', () => {
            resolve();
          });
          socket.once('connect', () => {
            socket.write(
              `POST /api/import HTTP/1.1\r\nHost: 127.0.0.1:${String(served.port)}\r\nContent-Type: application/json\r\nContent-Length: ${String(declared)}\r\n\r\n`,
            );
            let written = 0;
            const next = (): void => {
              while (written < sent && !socket.destroyed) {
                written += chunk.length;
                if (!socket.write(chunk)) {
                  socket.once('drain', next);
                  return;
                }
              }
              // The rest trickles: one byte a second, as a slow client sends it.
              const trickle = setInterval(() => {
                if (socket.destroyed) clearInterval(trickle);
                else socket.write('a');
              }, 1000);
              socket.once('close', () => {
                clearInterval(trickle);
              });
              resolve();
            };
            next();
          });
        }),
    );
    await Promise.all(writers);
    // Let the server read what it accepted, then take the largest of a few samples.
    let peak = 0;
    for (let sample = 0; sample < 10; sample += 1) {
      peak = Math.max(peak, rssOf(served.pid));
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const grown = peak - before;
    figures.bodiesRssMiB = Math.round(grown / MIB);
    const allowed = 192 * MIB;
    if (grown > allowed) figures.unbounded += 1;
    process.stdout.write(
      `slow bodies: ${String(bodies)} × ${String(declared / MIB)} MiB, RSS grew ${(grown / MIB).toFixed(0)} MiB (allowed ${String(allowed / MIB)} MiB)\n`,
    );
    await stillServes(served, sessionId);
    expect(grown, `RSS grew ${String(grown)} bytes under ${String(bodies)} slow bodies`).toBeLessThanOrEqual(allowed);
  });
});

/** A raw SSE client that waits for the 200 headers and then never reads again. */
function stalledReader(port: number, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    sockets.push(socket);
    let head = '';
    const onData = (chunk: Buffer): void => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      socket.off('data', onData);
      socket.pause();
      if (head.startsWith('HTTP/1.1 200')) resolve();
      else reject(new Error(`stream refused: ${head.slice(0, 200)}`));
    };
    socket.on('data', onData);
    socket.on('error', () => undefined);
    socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${String(port)}\r\nAccept: text/event-stream\r\n\r\n`);
  });
}

/** Sends messages of `size` bytes over HTTP until the session has grown by `total` bytes, each turn run. */
async function produce(served: Served, sessionId: string, size: number, total: number): Promise<void> {
  for (let sent = 0; sent < total; sent += size) {
    const text = 'z'.repeat(size - 16) + String(sent).padStart(16, '0');
    const accepted = await send(served.port, 'POST', `/api/sessions/${sessionId}/messages`, JSON.stringify({ text }));
    expect(accepted.status, accepted.text).toBe(202);
  }
  for (;;) {
    const observation = JSON.parse((await send(served.port, 'GET', `/api/sessions/${sessionId}`)).text) as { pendingInputs: unknown[] };
    if (observation.pendingInputs.length === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.skipIf(!RUNNABLE)('stalled SSE readers of a served host', { timeout: 600_000 }, () => {
  it('holds at most maxStreamBytesTotal for all stalled readers together, and the live session keeps running', async () => {
    // Each stream alone may hold more than all may together, so only the bound across streams holds them.
    const total = 8 * MIB;
    const served = await startServer(1024, { maxStreamBytesTotal: total, maxBufferedBytes: 64 * MIB });
    const sessionId = await liveSession(served);
    // What streaming costs the server without readers (the session's own events), measured first.
    const streamed = faultTrials(16, 32) * MIB;
    const calibrationStart = await served.live();
    await produce(served, sessionId, MIB / 4, streamed);
    const withoutReaders = Math.max(0, (await served.live()) - calibrationStart);

    const readers = faultTrials(8, 40);
    const observed = JSON.parse((await send(served.port, 'GET', `/api/sessions/${sessionId}`)).text) as { events: unknown[] };
    const path = `/api/sessions/${sessionId}/events?from=${String(observed.events.length)}`;
    for (let index = 0; index < readers; index += 1) await stalledReader(served.port, path);
    const start = await served.live();
    await produce(served, sessionId, MIB / 4, streamed);
    // Measured while every reader is still stalled: what the server holds for them now.
    const grown = (await served.live()) - start;
    figures.trials += readers;
    figures.streamsLiveMiB = Math.round(grown / MIB);
    // Together the stalled readers may hold `total`; the rest is the session's own growth and slack.
    const allowed = withoutReaders + total + 16 * MIB;
    if (grown > allowed) figures.unbounded += 1;
    process.stdout.write(
      `stalled readers: ${String(readers)}, streamed ${String(streamed / MIB)} MiB, live memory grew ${(grown / MIB).toFixed(0)} MiB (${(withoutReaders / MIB).toFixed(0)} MiB without readers; allowed ${(allowed / MIB).toFixed(0)} MiB)\n`,
    );
    await stillServes(served, sessionId);
    expect(grown, `live memory grew ${String(grown)} bytes with ${String(readers)} stalled readers`).toBeLessThanOrEqual(allowed);
  });
});

function statusText(status: number): string {
  return (
    {
      400: 'Bad Request',
      403: 'Forbidden',
      408: 'Request Timeout',
      413: 'Payload Too Large',
      415: 'Unsupported Media Type',
      503: 'Service Unavailable',
    }[status] ?? ''
  );
}
