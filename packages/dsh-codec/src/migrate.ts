/**
 * @module migrate
 * Migration to the current format: `migrateToCurrent` runs the version steps in order on a valid
 * artifact; `migrate` validates before and after.
 */
import { CodecError } from './codec-error.js';
import { CURRENT_FORMAT_VERSION } from './current-format-version.js';
import { errorFromIssues } from './error-from-issues.js';
import type { SessionEvent, SessionHeader } from './types.js';
import { describeValue } from './shared/describe-value.js';
import type { V0Event } from './v0/schemas.js';
import { migrateV0ToV1 } from './v1/migrate-v0-to-v1.js';
import type { V1Event, V1Header } from './v1/schemas.js';
import { migrateV1ToV2 } from './v2/migrate-v1-to-v2.js';
import type { V2Event, V2Header } from './v2/schemas.js';
import { migrateV2ToV3 } from './v3/migrate-v2-to-v3.js';
import type { V3Header } from './v3/schemas.js';
import type { V3Event } from './v3/types.js';
import { migrateV3ToV4 } from './v4/migrate-v3-to-v4.js';
import type { V4Header } from './v4/types.js';
import { migrateV4ToV5 } from './v5/migrate-v4-to-v5.js';
import type { V5Header } from './v5/types.js';
import { migrateV5ToV6 } from './v6/migrate-v5-to-v6.js';
import type { V6Header } from './v6/types.js';
import { migrateV6ToV7 } from './v7/migrate-v6-to-v7.js';
import { validate } from './validate.js';

type Artifact = { header?: unknown; events: readonly unknown[] };

/**
 * Runs the migration steps from `from` up to the current version (V7), in order, on an artifact already valid in
 * version `from`. Pure; unchanged events are shared, never mutated. A V0 log needs `sessionId`.
 */
export function migrateToCurrent(
  artifact: Artifact,
  from: 0 | 1 | 2 | 3 | 4 | 5 | 6,
  options: { sessionId?: string } = {},
): { header: SessionHeader; events: SessionEvent[] } {
  let v1: { header: V1Header; events: readonly V1Event[] } | undefined;
  let v2: { header: V2Header; events: readonly V2Event[] } | undefined;
  let v3: { header: V3Header; events: readonly V3Event[] } | undefined;
  if (from === 0) {
    const { sessionId } = options;
    if (typeof sessionId !== 'string' || sessionId === '') {
      throw new CodecError(
        'INVALID_HEADER',
        `line 1: a V0 log has no header, so its session id comes from its file name: pass { sessionId }, got ${describeValue(sessionId)}`,
        { line: 1 },
      );
    }
    v1 = migrateV0ToV1({ events: artifact.events as readonly V0Event[] }, sessionId);
  }
  if (from <= 1) v2 = migrateV1ToV2(v1 ?? (artifact as { header: V1Header; events: readonly V1Event[] }));
  if (from <= 2) v3 = migrateV2ToV3(v2 ?? (artifact as { header: V2Header; events: readonly V2Event[] }));
  let v4: { header: V4Header; events: readonly SessionEvent[] } | undefined;
  if (from <= 3) v4 = migrateV3ToV4(v3 ?? (artifact as { header: V3Header; events: readonly V3Event[] }));
  let v5: { header: V5Header; events: readonly SessionEvent[] } | undefined;
  if (from <= 4) v5 = migrateV4ToV5(v4 ?? (artifact as { header: V4Header; events: readonly SessionEvent[] }));
  let v6: { header: V6Header; events: readonly SessionEvent[] } | undefined;
  if (from <= 5) v6 = migrateV5ToV6(v5 ?? (artifact as { header: V5Header; events: readonly SessionEvent[] }));
  return migrateV6ToV7(v6 ?? (artifact as { header: V6Header; events: readonly SessionEvent[] }));
}

/**
 * A log of version `fromVersion` as the current version (V7). Validates the input with that version's frozen validator
 * and the output as V7, throwing `CodecError` on the first issue. `fromVersion` 7 returns a copy.
 */
export function migrate(
  artifact: { header?: unknown; events: readonly unknown[] },
  fromVersion: 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7,
  options: { sessionId?: string } = {},
): { header: SessionHeader; events: SessionEvent[] } {
  const before = validate(fromVersion, artifact);
  if (before.length > 0) throw errorFromIssues(before, { context: `(migrating from V${String(fromVersion)})` });
  const migrated =
    fromVersion === CURRENT_FORMAT_VERSION
      ? { header: artifact.header as SessionHeader, events: [...artifact.events] as SessionEvent[] }
      : migrateToCurrent(artifact, fromVersion, options);
  const after = validate(CURRENT_FORMAT_VERSION, migrated);
  if (after.length > 0) throw errorFromIssues(after, { context: `(after migrating from V${String(fromVersion)})` });
  return migrated;
}
