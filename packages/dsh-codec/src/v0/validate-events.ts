/**
 * The event loop shared by the V0–V2 validators: envelope, payload schema of a known type,
 * then relationships. Frozen with V0.
 */
import type { z } from 'zod';
import { checkV0Envelope } from './check-envelope.js';
import { eventIssue, type Issue } from './issue.js';
import { V0RelationshipChecker, type RelationshipView } from './relationship-checker.js';
import { fromZodIssues } from './zod-issues.js';

/** How one version reads its events: payload schemas by type and the relationship view of each. */
export type LegacyEventRules = {
  version: number;
  schemas: Readonly<Record<string, z.ZodType>>;
  view: (type: string, data: unknown) => RelationshipView;
  /** A fast check that accepts only what `schemas[type]` accepts; when it says false, zod decides. */
  fast?: (type: string, data: unknown) => boolean;
};

/** Every issue of `events` under `rules`. `onEvent` sees each event with a valid shape. */
export function validateLegacyEvents(
  events: readonly unknown[],
  rules: LegacyEventRules,
  onEvent?: (index: number, type: string, data: unknown, shapeValid: boolean) => Issue[],
): Issue[] {
  const issues: Issue[] = [];
  const relationships = new V0RelationshipChecker();
  events.forEach((event, index) => {
    const envelope = checkV0Envelope(event, index, rules.version);
    let shape = envelope;
    const { type, data } = (envelope.length === 0 ? event : { type: '', data: undefined }) as { type: string; data: unknown };
    if (envelope.length === 0) {
      const schema = Object.hasOwn(rules.schemas, type) ? rules.schemas[type] : undefined;
      if (schema === undefined) {
        shape = [eventIssue(index, ['type'], `event at seq ${String(index)}: unknown V${String(rules.version)} event type ${JSON.stringify(type)}`)];
      } else if (rules.fast?.(type, data) !== true) {
        const result = schema.safeParse(data);
        if (!result.success) shape = fromZodIssues(result.error.issues, data, ['data'], `${type} at seq ${String(index)}`, (path, message) => eventIssue(index, path, message));
      }
    }
    issues.push(...shape);
    if (shape.length === 0) {
      const view = rules.view(type, data);
      issues.push(...relationships.check(view, type, index));
      relationships.apply(view, index);
    }
    if (onEvent !== undefined && envelope.length === 0) issues.push(...onEvent(index, type, data, shape.length === 0));
  });
  return issues;
}
