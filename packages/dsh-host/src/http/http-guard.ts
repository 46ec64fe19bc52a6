/**
 * @module The request guard in front of the HTTP API: what a hostile web page in the user's browser
 * must not be able to do to a server on loopback. Runs before any route, as hono middleware
 * (`httpGuard`) and as a plain check (`checkRequest`) for servers that are not hono apps (the demo's).
 *
 * - **Host** syntax: a `Host` that is not a host name, an IP literal or either with `:port` is a
 *   malformed request (400 `BAD_REQUEST`, see `parse-host-header.ts`), checked before any URL is built.
 * - **Host** (DNS rebinding): a `Host` that is not an IP literal, `localhost`, the bound name or an
 *   allowed name is refused (403 `HOST_NOT_ALLOWED`) — a rebinding page reaches us under its own name.
 * - **Cross-origin state changes** (CSRF): an unsafe method whose `Sec-Fetch-Site` is `cross-site`/
 *   `same-site`, or whose `Origin` is not the request's own origin or an allowed one, is refused
 *   (403 `CROSS_ORIGIN`). Browsers send `Origin` on every cross-origin POST, including the
 *   "simple" `text/plain` ones that need no preflight.
 * - **Bodies**: a request that carries a body must say `application/json` (415
 *   `UNSUPPORTED_MEDIA_TYPE`), so no HTML form or `text/plain` fetch can deliver one.
 * - **Bearer token**: when configured, every request needs it (401 `UNAUTHORIZED`).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { HostError } from '../host-error.js';
import { isIpLiteral, parseHostHeader } from './parse-host-header.js';

/** What the guard accepts. Every field is optional; `{}` still refuses cross-origin writes and non-JSON bodies. */
export type HttpGuardOptions = {
  /**
   * Host names accepted in the `Host` header besides IP literals and `localhost` (e.g. the bound
   * name, `my-box.lan`); a leading dot allows subdomains. Undefined: the `Host` header is not checked
   * (an in-process handler has no bound address).
   */
  allowedHosts?: readonly string[];
  /** Origins (`scheme://host[:port]`) allowed to change state besides the request's own. */
  allowedOrigins?: readonly string[];
  /** When set, every request needs `Authorization: Bearer <token>`. */
  token?: string;
};

const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

function isAllowedHostName(name: string, allowed: readonly string[]): boolean {
  // An IP literal cannot be rebound, and browsers resolve `localhost` and `*.localhost` to loopback themselves.
  if (isIpLiteral(name) || name === 'localhost' || name.endsWith('.localhost')) return true;
  return allowed.some((entry) => {
    const lower = entry.toLowerCase();
    return lower.startsWith('.') ? name === lower.slice(1) || name.endsWith(lower) : name === lower;
  });
}

function truncated(value: string): string {
  return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
}

/** The refusal of a `Host` header that no URL could be built from. @internal */
export function badHostHeader(value: string): HostError {
  const expected = 'a host name, an IPv4 address or a bracketed IPv6 address, optionally with :port (1-65535)';
  return new HostError('BAD_REQUEST', `Invalid Host header ${truncated(value)}: expected ${expected}.`, {
    details: { issues: [{ path: ['headers', 'host'], message: `expected ${expected}` }] },
  });
}

/** Whether a request carries a body (a declared length above zero, or a chunked one). */
function hasBody(headers: Headers): boolean {
  const length = headers.get('content-length');
  if (length !== null) return length.trim() !== '0';
  return headers.has('transfer-encoding');
}

function isJsonMediaType(value: string): boolean {
  const type = value.split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}

/**
 * Checks one request against the guard; returns the refusal (a `HostError` with its code) or
 * undefined when the request may proceed. `hostHeader` overrides the request's `Host` (Node servers
 * pass the raw header, since a Fetch `Request` may not carry one).
 */
export function checkRequest(request: Request, options: HttpGuardOptions, hostHeader?: string): HostError | undefined {
  const { headers } = request;
  const given = hostHeader ?? headers.get('host');
  const parsed = given === null ? undefined : parseHostHeader(given);
  if (given !== null && parsed === undefined) return badHostHeader(given);
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return badHostHeader(given ?? request.url);
  }
  const host = given ?? url.host;
  if (options.allowedHosts !== undefined) {
    const name = parsed?.name ?? url.hostname;
    if (!isAllowedHostName(name, options.allowedHosts)) {
      return new HostError(
        'HOST_NOT_ALLOWED',
        `Host ${truncated(host)} is not allowed: expected an IP address, localhost or one of the allowed hosts (${options.allowedHosts.join(', ') || 'none configured'}); add it with --allowed-host.`,
      );
    }
  }
  if (options.token !== undefined) {
    const match = /^Bearer (.+)$/.exec(headers.get('authorization') ?? '');
    if (match?.[1] === undefined || !timingSafeEqual(digest(match[1]), digest(options.token))) {
      return new HostError('UNAUTHORIZED', 'Missing or wrong bearer token: send `Authorization: Bearer <token>`.');
    }
  }
  if (SAFE_METHODS.has(request.method.toUpperCase())) return undefined;
  const site = headers.get('sec-fetch-site');
  if (site !== null && site !== 'same-origin' && site !== 'none') {
    return new HostError(
      'CROSS_ORIGIN',
      `Refusing a ${request.method} from another site: expected Sec-Fetch-Site same-origin or none, received ${truncated(site)}.`,
    );
  }
  const origin = headers.get('origin');
  if (origin !== null) {
    const own = `${url.protocol}//${host}`.toLowerCase();
    const allowed =
      origin.toLowerCase() === own || (options.allowedOrigins ?? []).some((entry) => entry.toLowerCase() === origin.toLowerCase());
    if (!allowed) {
      return new HostError(
        'CROSS_ORIGIN',
        `Refusing a ${request.method} from origin ${truncated(origin)}: expected ${own} or an allowed origin.`,
      );
    }
  }
  const type = headers.get('content-type');
  if (type !== null ? !isJsonMediaType(type) : hasBody(headers)) {
    return new HostError(
      'UNSUPPORTED_MEDIA_TYPE',
      `Request bodies must be JSON: expected Content-Type application/json, received ${type === null ? 'none' : truncated(type)}.`,
    );
  }
  return undefined;
}

/** The guard as hono middleware: refusals are thrown as `HostError`s for the app's error handler. */
export function httpGuard(options: HttpGuardOptions): MiddlewareHandler {
  return async (context, next) => {
    const refusal = checkRequest(context.req.raw, options);
    if (refusal !== undefined) {
      if (refusal.code === 'UNAUTHORIZED') context.header('WWW-Authenticate', 'Bearer');
      throw refusal;
    }
    await next();
  };
}
