/**
 * @module session-key
 * Keys → dsh session ids. A key is checked (no empty, path-like or control-character parts) and then
 * only ever hashed: the dsh id is `claude-<project>-<session>[-<subpath>]` of SHA-256 hex digests, so
 * nothing a caller passes becomes a file or row name. The key itself is recorded inside the session.
 */
import { createHash } from 'node:crypto';
import { ClaudeStoreError } from './claude-store-error.js';
import type { SessionKey } from './claude-types.js';

const MAX_PART = 1024;
// C0, DEL, C1 and backslash: nothing a path separator or terminal control could hide behind.
// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\\]/;

/** Prefix of every dsh session this package writes. */
export const CLAUDE_ID_PREFIX = 'claude-';

function shown(value: unknown): string {
  if (typeof value !== 'string') return value === undefined ? 'undefined' : typeof value;
  return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
}

function refuse(field: string, value: unknown, why: string): never {
  throw new ClaudeStoreError('INVALID_KEY', `Invalid session key: expected ${field} to be ${why}, received ${shown(value)}.`);
}

function checkSegment(field: string, value: unknown, slashes: boolean): void {
  const rule = slashes
    ? 'a non-empty path of "/"-separated segments, none empty, "." or "..", without control characters or backslashes'
    : 'a non-empty string of at most 1024 characters without "/", backslashes or control characters, other than "." and ".."';
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_PART || FORBIDDEN.test(value)) refuse(field, value, rule);
  const segments = slashes ? value.split('/') : [value];
  if (!slashes && value.includes('/')) refuse(field, value, rule);
  for (const segment of segments) if (segment === '' || segment === '.' || segment === '..') refuse(field, value, rule);
}

/** Throws `INVALID_KEY` unless `key` is a usable key; returns it without extra fields. */
export function checkSessionKey(key: unknown): SessionKey {
  if (typeof key !== 'object' || key === null) refuse('the key', key, 'an object { projectKey, sessionId, subpath? }');
  let parts: Record<string, unknown>;
  try {
    // Read once: a getter or proxy trap is asked no second time, and a throwing one is a refusal.
    const { projectKey, sessionId, subpath } = key as Record<string, unknown>;
    parts = { projectKey, sessionId, subpath };
  } catch {
    refuse('the key', 'a key whose reading threw', 'an object { projectKey, sessionId, subpath? } of plain strings');
  }
  const { projectKey, sessionId, subpath } = parts;
  checkSegment('projectKey', projectKey, false);
  checkSegment('sessionId', sessionId, false);
  if (subpath !== undefined) checkSegment('subpath', subpath, true);
  return {
    projectKey: projectKey as string,
    sessionId: sessionId as string,
    ...(subpath === undefined ? {} : { subpath: subpath as string }),
  };
}

/** Throws `INVALID_KEY` unless `projectKey` is a usable project key. */
export function checkProjectKey(projectKey: unknown): string {
  checkSegment('projectKey', projectKey, false);
  return projectKey as string;
}

function digest(parts: readonly string[], length: number): string {
  // NUL never occurs inside a checked part, so joining on it is unambiguous.
  return createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, length);
}

/** `claude-<16 hex of projectKey>-`: every session of a project starts with it. */
export function projectPrefix(projectKey: string): string {
  return `${CLAUDE_ID_PREFIX}${digest([projectKey], 16)}-`;
}

/** The dsh id of a key's main transcript (`claude-<p16>-<s32>`). */
export function mainSessionId(projectKey: string, sessionId: string): string {
  return `${projectPrefix(projectKey)}${digest([projectKey, sessionId], 32)}`;
}

/** The dsh id of `key`: its main transcript's id, plus `-<32 hex>` of the subpath for a subkey. */
export function dshSessionIdOf(key: SessionKey): string {
  const main = mainSessionId(key.projectKey, key.sessionId);
  return key.subpath === undefined ? main : `${main}-${digest([key.projectKey, key.sessionId, key.subpath], 32)}`;
}

/** True when `id` is the main transcript id of some project under `prefix` (not a subkey). */
export function isMainId(id: string, prefix: string): boolean {
  return id.startsWith(prefix) && /^[0-9a-f]{32}$/.test(id.slice(prefix.length));
}

/** True when two keys name the same transcript. */
export function sameKey(a: SessionKey, b: SessionKey): boolean {
  return a.projectKey === b.projectKey && a.sessionId === b.sessionId && a.subpath === b.subpath;
}
