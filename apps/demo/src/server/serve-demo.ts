/**
 * The demo's HTTP server on Node's `http`: `/api/*` goes to the host's Fetch handler (SPEC §10,
 * SSE streamed as it is produced), everything else is the built page, with `index.html` for any
 * path that is not a file. Every request first passes dsh-host's guard (`checkRequest`): Host
 * (DNS rebinding), cross-origin state changes, JSON bodies, and the bearer token when one is set —
 * which the page learns from the `dsh-token` meta tag this server writes into `index.html`, beside
 * `dsh-cli-data` (the CLI arguments that reach the demo's sessions). `POST /api/import` (a transcript
 * file to import) is the host's route like every other; only its body may be larger. It runs on
 * dsh-host's `createBoundedHttpServer` (connections, idle and header time, body rate and bodies read
 * at once bounded), and every refusal closes its connection.
 */
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { checkRequest, HostError, type ConnectionLimits } from 'dsh-host';
import { answerAndClose, createBoundedHttpServer, listenHttpServer } from 'dsh-host/launcher';

/** The part of a dsh host this server needs. */
export type FetchHandler = { fetch(request: Request): Promise<Response> };

/** A listening demo server. `close()` ends open event streams too. */
export type DemoHttpServer = { url: string; port: number; close(): Promise<void> };

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.ico': 'image/x-icon',
};

/** Request bodies above this are refused before they reach the host. */
const MAX_BODY_BYTES = 2 * 1024 * 1024;
/** A transcript to import may be larger than any API request: long agent sessions run to megabytes. */
const MAX_IMPORT_BYTES = 32 * 1024 * 1024;

async function readBody(request: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer | undefined> {
  // A declared length over the limit is refused before a byte of the body is read.
  if (Number(request.headers['content-length'] ?? 0) > limit) return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > limit) return undefined;
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

async function forward(
  host: FetchHandler,
  origin: string,
  request: IncomingMessage,
  response: ServerResponse,
  pathname: string,
): Promise<void> {
  const method = request.method ?? 'GET';
  // The host's import route takes whole transcripts (its own limit is the same 32 MiB).
  const limit = pathname === '/api/import' ? MAX_IMPORT_BYTES : MAX_BODY_BYTES;
  const body = method === 'GET' || method === 'HEAD' ? undefined : await readBody(request, limit);
  if (body === undefined && method !== 'GET' && method !== 'HEAD') {
    answerAndClose(response, new HostError('PAYLOAD_TOO_LARGE', `Request body too large: expected at most ${String(limit)} bytes.`));
    return;
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) for (const item of value) headers.append(name, item);
  }
  const aborted = new AbortController();
  response.on('close', () => {
    aborted.abort();
  });
  const answer = await host.fetch(
    new Request(new URL(request.url ?? '/', origin), {
      method,
      headers,
      signal: aborted.signal,
      ...(body === undefined ? {} : { body: new Uint8Array(body) }),
    }),
  );
  response.writeHead(answer.status, Object.fromEntries(answer.headers));
  if (answer.body === null) {
    response.end();
    return;
  }
  response.flushHeaders();
  const reader = answer.body.getReader();
  response.on('close', () => {
    reader.cancel().catch(() => undefined);
  });
  for (;;) {
    const chunk = await reader.read().catch(() => ({ done: true as const, value: undefined }));
    if (chunk.done) break;
    response.write(chunk.value);
  }
  response.end();
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** What the served `index.html` tells the page: the API token, if any, and the CLI's data arguments. */
type PageMeta = { token?: string; cliData?: string };

async function servePage(distDir: string, pathname: string, response: ServerResponse, meta: PageMeta): Promise<void> {
  const relative = pagePath(pathname);
  let file = relative === undefined ? distDir : join(distDir, relative);
  if (file !== distDir && !file.startsWith(distDir + sep)) file = join(distDir, 'index.html');
  const info = await stat(file).catch(() => undefined);
  if (info === undefined || !info.isFile()) file = join(distDir, 'index.html');
  const type = CONTENT_TYPES[extname(file)] ?? 'application/octet-stream';
  const immutable = file.includes(`${sep}assets${sep}`);
  if (extname(file) === '.html') {
    // The page needs the token for its API calls; only a page read through an allowed Host gets it.
    const tags = [
      ...(meta.token === undefined ? [] : [`<meta name="dsh-token" content="${escapeAttribute(meta.token)}">`]),
      ...(meta.cliData === undefined ? [] : [`<meta name="dsh-cli-data" content="${escapeAttribute(meta.cliData)}">`]),
    ].join('');
    const html = (await readFile(file, 'utf8')).replace('<head>', `<head>${tags}`);
    response.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' });
    response.end(html);
    return;
  }
  response.writeHead(200, { 'content-type': type, 'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache' });
  createReadStream(file).pipe(response);
}

/**
 * The file a page path names inside the built page, or undefined (then `index.html` is served): a
 * path that does not decode, or one with a segment starting with '.' (the build's own records in
 * `.vite/`, any dot file) names no file of the page.
 */
function pagePath(pathname: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  const relative = normalize(decoded).replace(/^([/\\])+/, '');
  return relative.split(/[/\\]/).some((segment) => segment.startsWith('.')) ? undefined : relative;
}

/** Answers a refusal of the guard as the API's JSON error. */
function refuse(request: IncomingMessage, response: ServerResponse, origin: string, token: string | undefined): boolean {
  const probe = new Request(new URL(request.url ?? '/', origin), {
    method: request.method ?? 'GET',
    headers: Object.entries(request.headers).flatMap(([name, value]) =>
      value === undefined || name === 'host' ? [] : (Array.isArray(value) ? value : [value]).map((item): [string, string] => [name, item]),
    ),
  });
  const refusal = checkRequest(probe, { allowedHosts: [], ...(token === undefined ? {} : { token }) }, request.headers.host ?? '');
  if (refusal === undefined) return false;
  answerAndClose(response, refusal, refusal.code === 'UNAUTHORIZED' ? { 'www-authenticate': 'Bearer' } : {});
  return true;
}

/**
 * Listens on `hostname:port` (port 0 = any free port) and serves the API and the page. With a
 * `token`, every API request needs it (the served page carries it). `cliData` (e.g. `--data DIR`)
 * is what the page appends to the `dsh` commands it shows, so they reach these sessions.
 */
export async function serveDemo(options: {
  host: FetchHandler;
  distDir: string;
  hostname: string;
  port: number;
  token?: string;
  cliData?: string;
  limits?: ConnectionLimits;
}): Promise<DemoHttpServer> {
  let origin = `http://${options.hostname}`;
  const handler = (request: IncomingMessage, response: ServerResponse): void => {
    const pathname = new URL(request.url ?? '/', origin).pathname;
    const isApi = pathname.startsWith('/api/');
    if (refuse(request, response, origin, isApi ? options.token : undefined)) return;
    const handled = isApi
      ? forward(options.host, origin, request, response, pathname)
      : servePage(options.distDir, pathname, response, {
          ...(options.token === undefined ? {} : { token: options.token }),
          ...(options.cliData === undefined ? {} : { cliData: options.cliData }),
        });
    handled.catch((error: unknown) => {
      // Already answered (a body cut off for its rate): its read failing is no news.
      if (response.writableEnded) return;
      console.error(`demo: ${request.method ?? 'GET'} ${pathname} failed`, error);
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { code: 'INTERNAL', message: 'Internal server error; the demo logged the details.' } }));
    });
  };
  const server = createBoundedHttpServer({
    handler,
    bodyLimitOf: (request) => ((request.url ?? '/').split('?')[0] === '/api/import' ? MAX_IMPORT_BYTES : MAX_BODY_BYTES),
    ...(options.limits === undefined ? {} : { limits: options.limits }),
  });
  const listening = await listenHttpServer(server, options.hostname, options.port);
  origin = `http://${options.hostname}:${listening.port}`;
  return { url: `${origin}/`, port: listening.port, close: listening.close };
}
