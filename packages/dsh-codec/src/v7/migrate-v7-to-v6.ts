/**
 * Migration V7 → V6 (a downgrade, SPEC §24): a self-contained V7 log as the V6 log a V6 dsh reads, with
 * every issue the frozen V6 validator (or V6's header) finds in it — what V6 cannot hold, which the caller
 * refuses (`encodeJsonlAtVersion`: `UNREPRESENTABLE`); nothing is ever dropped. Pure; events are the very
 * same objects (V7's events are V6's).
 */
import { headerAtVersion } from '../shared/header-at-version.js';
import type { SessionEvent, SessionHeader, ValidationIssue } from '../types.js';
import type { V6Header } from '../v6/types.js';
import { validateV6 } from '../v6/validate-v6.js';

/** The log as V6 and what V6 cannot hold of it (`issues`, `[]` when nothing). `artifact` is a valid, self-contained V7 log. */
export function migrateV7ToV6(artifact: { header: SessionHeader; events: readonly SessionEvent[] }): {
  header: V6Header;
  events: SessionEvent[];
  issues: ValidationIssue[];
} {
  const { forkRequest } = artifact.header;
  const header: V6Header = {
    ...headerAtVersion(artifact.header, 6),
    ...(forkRequest === undefined ? {} : { forkRequest: { key: forkRequest.key, digest: forkRequest.digest } }),
  };
  const extra = Object.keys(artifact.header).filter((key) => !Object.hasOwn(header, key) && key !== 'version');
  const downgraded = { header, events: [...artifact.events] };
  const issues = extra.map((key): ValidationIssue => ({
    code: 'INVALID_HEADER',
    path: ['header', key],
    message: `header.${key}: V6 has no such field`,
  }));
  if (issues.length === 0) issues.push(...validateV6(downgraded));
  return { ...downgraded, issues };
}
