/**
 * The event loop shared by the V0–V2 validators: envelope, payload schema of a known type,
 * then relationships. Frozen with V0.
 */
import type { z } from 'zod';
import { checkV0Envelope, v0EnvelopeIsValid } from './check-envelope.js';
import { eventIssue, type Issue } from '../shared/issue.js';
import { V0RelationshipChecker, type RelationshipView } from './relationship-checker.js';
import { fromZodIssues } from '../shared/zod-issues.js';

/** How one version reads its events: payload schemas by type and the relationship view of each. */
export type LegacyEventRules = {
  version: number;
  schemas: Readonly<Record<string, z.ZodType>>;
  view: (type: string, data: unknown) => RelationshipView;
  /** A fast check that accepts only what `schemas[type]` accepts; when it says false, zod decides. */
  fast?: (type: string, data: unknown) => boolean;
};

/**
 * Every issue of `events` under `rules`. `onEvent` sees each event with a valid shape. `parsed`
 * vouches that every event comes straight from `JSON.parse` (the decoder), which allows a cheaper
 * lossless check; nothing is allocated for a sound event but its relationship view.
 */
export function validateLegacyEvents(
  events: readonly unknown[],
  rules: LegacyEventRules,
  onEvent?: (index: number, type: string, data: unknown, shapeValid: boolean) => Issue[],
  parsed = false,
): Issue[] {
  const issues: Issue[] = [];
  const relationships = new V0RelationshipChecker();
  events.forEach((event, index) => {
    const envelopeValid = v0EnvelopeIsValid(event, index, parsed) || pushAll(issues, checkV0Envelope(event, index, rules.version));
    let shapeValid = envelopeValid;
    const { type, data } = (envelopeValid ? event : { type: '', data: undefined }) as { type: string; data: unknown };
    if (envelopeValid) {
      const schema = Object.hasOwn(rules.schemas, type) ? rules.schemas[type] : undefined;
      if (schema === undefined) {
        shapeValid = false;
        issues.push(
          eventIssue(
            index,
            ['type'],
            `event at seq ${String(index)}: unknown V${String(rules.version)} event type ${JSON.stringify(type)}`,
          ),
        );
      } else if (rules.fast?.(type, data) !== true) {
        const result = schema.safeParse(data);
        if (!result.success)
          shapeValid = pushAll(
            issues,
            fromZodIssues(result.error.issues, data, ['data'], `${type} at seq ${String(index)}`, (path, message) =>
              eventIssue(index, path, message),
            ),
          );
      }
    }
    if (shapeValid) {
      const view = rules.view(type, data);
      relationships.checkInto(view, type, index, issues);
      relationships.apply(view, index);
    }
    if (onEvent !== undefined && envelopeValid) pushAll(issues, onEvent(index, type, data, shapeValid));
  });
  return issues;
}

/** Pushes `found` onto `issues`; true when there was none. */
function pushAll(issues: Issue[], found: readonly Issue[]): boolean {
  for (const issue of found) issues.push(issue);
  return found.length === 0;
}
