/**
 * @module validate
 * The public `validate`: each format version's validator (V0–V6 frozen, V7 current) by version number, and
 * `validateParsed` for the decoder's freshly parsed artifacts.
 */
import type { FormatVersion, ValidationIssue } from './types.js';
import { describeValue } from './shared/describe-value.js';
import { validateV0 } from './v0/validate-v0.js';
import { validateV1 } from './v1/validate-v1.js';
import { validateV2 } from './v2/validate-v2.js';
import { validateV3 } from './v3/validate-v3.js';
import { validateV4 } from './v4/validate-v4.js';
import { validateV5 } from './v5/validate-v5.js';
import { validateV6 } from './v6/validate-v6.js';
import { validateV7 } from './v7/validate-v7.js';

const VALIDATORS = [validateV0, validateV1, validateV2, validateV3, validateV4, validateV5, validateV6, validateV7] as const;

/**
 * `validate` for an artifact the decoder built from `JSON.parse` output (an events array of parsed
 * values): the same verdict, with the cheaper lossless check such values allow. Internal.
 */
export function validateParsed(version: 0 | 1 | 2 | 3, artifact: { header?: unknown; events: unknown[] }): ValidationIssue[] {
  return version === 3 ? validateV3(artifact) : LEGACY_VALIDATORS[version](artifact, true);
}

const LEGACY_VALIDATORS = [validateV0, validateV1, validateV2] as const;

/**
 * That version's frozen validator (shapes and relationships): every issue with its path and seq,
 * `[]` when valid. V0 artifacts have no header. Never throws.
 */
export function validate(version: FormatVersion, artifact: { header?: unknown; events: readonly unknown[] }): ValidationIssue[] {
  const validator = Number.isInteger(version) ? VALIDATORS[version] : undefined;
  if (validator === undefined) {
    return [
      {
        code: 'INVALID_HEADER',
        path: ['header', 'version'],
        message: `validate: expected format version 0, 1, 2, 3, 4, 5, 6 or 7, got ${describeValue(version)}`,
      },
    ];
  }
  const events: unknown = (artifact as { events?: unknown } | null)?.events;
  if (!Array.isArray(events)) {
    return [
      {
        code: 'INVALID_EVENT',
        path: ['events'],
        message: `validate: expected an artifact {header, events: [...]}, got events ${describeValue(events)}`,
      },
    ];
  }
  const header: unknown = (artifact as { header?: unknown }).header;
  return validator(header === undefined ? { events } : { header, events });
}
