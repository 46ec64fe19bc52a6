/** @module The digest an idempotent fork stores with its child, so the same request is recognised after a restart. */
import { createHash } from 'node:crypto';
import { PrintableTitle } from 'dsh-session';
import type { ForkOptions } from '../host-types.js';

/** JSON with object keys in code-unit order at every depth: equal requests give equal text. */
function canonicalJson(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item)).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, item]) => item !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
}

/**
 * The digest stored with an idempotent fork's child (`forkRequest.digest`): SHA-256 of the request
 * as the caller sent it — source reference, cut, child id, title, config — in canonical JSON, so the
 * same request after a restart matches and any difference (even key order aside) does not.
 * @internal
 */
export function forkRequestDigest(sourceRef: string, request: Omit<ForkOptions, 'idempotencyKey'>): string {
  const text = canonicalJson({
    source: sourceRef,
    atSeq: request.atSeq,
    id: request.id,
    title: PrintableTitle.is(request.title) ? request.title.text : request.title,
    config: request.config,
    configPatch: request.configPatch,
    workspace: request.workspace,
    worktree: request.worktree,
  });
  return `sha256-${createHash('sha256').update(text).digest('hex')}`;
}
