/**
 * The shape of one event for a version since V4: its envelope, then the payload schema of its core
 * type (a hand-written fast path first, zod when it says no); an unknown type is admitted only
 * with `ignorable: true`. A version folder configures it with its envelope, types and schemas.
 */
import type { z } from 'zod';
import { eventIssue, type Issue } from './issue.js';
import { fromZodIssues } from './zod-issues.js';

/** What a version's event shape is made of. */
export interface EventShapeParts<Type extends string> {
  /** True only when `checkEnvelope` certainly finds nothing (allocation-free). */
  envelopeIsValid: (event: unknown, index: number, parsed: boolean) => boolean;
  checkEnvelope: (event: unknown, index: number, parsed: boolean) => Issue[];
  isCoreType: (type: string) => type is Type;
  /** `true` only if `data` is a valid payload of `type`; `false` means "ask the zod schema". */
  isValidCorePayload: (type: Type, data: unknown) => boolean;
  schemas: Readonly<Record<Type, z.ZodType>>;
}

/** A version's pair of shape checks: the allocation-free fast answer and the one that explains. */
export interface EventShape {
  /** True only when `check` certainly returns no issue; false means "ask `check`". */
  isValid: (event: unknown, index: number, parsed?: boolean) => boolean;
  /** Every shape issue of `event` as the event at `index` (no relationships); `parsed`: fresh from `JSON.parse`. */
  check: (event: unknown, index: number, parsed?: boolean) => Issue[];
}

/** The shape checks of a version made of `parts`. */
export function eventShape<Type extends string>(parts: EventShapeParts<Type>): EventShape {
  const { envelopeIsValid, checkEnvelope, isCoreType, isValidCorePayload, schemas } = parts;
  return {
    isValid: (event: unknown, index: number, parsed = false): boolean => {
      if (!envelopeIsValid(event, index, parsed)) return false;
      const { type, data, ignorable } = event as { type: string; data: unknown; ignorable?: true };
      return isCoreType(type) ? isValidCorePayload(type, data) : ignorable === true;
    },
    check: (event: unknown, index: number, parsed = false): Issue[] => {
      const issues = checkEnvelope(event, index, parsed);
      if (issues.length > 0) return issues;
      const { type, data, ignorable } = event as { type: string; data: unknown; ignorable?: true };
      if (!isCoreType(type)) {
        if (ignorable === true) return issues;
        return [
          eventIssue(
            index,
            ['type'],
            `event at seq ${String(index)}: unknown event type ${JSON.stringify(type)} without ignorable: true (a reader refuses unknown events unless they are ignorable)`,
          ),
        ];
      }
      if (isValidCorePayload(type, data)) return issues;
      const result = schemas[type].safeParse(data);
      if (result.success) return issues;
      return fromZodIssues(result.error.issues, data, ['data'], `${type} at seq ${String(index)}`, (path, message) =>
        eventIssue(index, path, message),
      );
    },
  };
}
