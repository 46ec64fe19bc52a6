/**
 * @module What a `Host` header may hold (RFC 9110 §7.2 with the URL standard's reading of numbers):
 * a host name, an IPv4 address, an IPv6 address in brackets, each optionally followed by `:port`.
 * A name whose last label is a number is read as an IPv4 address, as browsers and `new URL` read it,
 * so `999.999.999.999` and `1.2.3.4.5` are refused instead of reaching the URL parser.
 */
import { isIPv4, isIPv6 } from 'node:net';

/** A valid `Host` value: the lower-cased name (IPv6 in brackets) and the port when one was given. */
export type HostHeader = { name: string; port: number | undefined };

const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;
const NUMERIC_LABEL = /^(?:\d+|0x[0-9a-f]*)$/;

function isHostName(name: string): boolean {
  const labels = (name.endsWith('.') ? name.slice(0, -1) : name).split('.');
  if (name.length > 254 || labels.some((label) => !LABEL.test(label))) return false;
  // A name ending in a number is an IPv4 address to every URL parser: it must be a dotted quad.
  return !NUMERIC_LABEL.test(labels.at(-1) ?? '') || isIPv4(name);
}

/**
 * Parses a `Host` header value; undefined when it is not a host name, an IP literal or either with
 * a port of 1-65535 (no leading zeros in IPv4, no zone id in IPv6, no empty value).
 * @internal
 */
export function parseHostHeader(value: string): HostHeader | undefined {
  const match = /^(\[[^\]]*\]|[^:[\]]*)(?::(\d{1,5}))?$/.exec(value.trim().toLowerCase());
  if (match === null) return undefined;
  const name = match[1] as string;
  const port = match[2] === undefined ? undefined : Number(match[2]);
  if (port !== undefined && (port < 1 || port > 65_535)) return undefined;
  const valid = name.startsWith('[') ? /^\[[0-9a-f:.]+\]$/.test(name) && isIPv6(name.slice(1, -1)) : isIPv4(name) || isHostName(name);
  return valid ? { name, port } : undefined;
}

/** Whether a parsed `Host` name is an IP literal (which cannot be rebound to another address). @internal */
export function isIpLiteral(name: string): boolean {
  return name.startsWith('[') || isIPv4(name);
}
