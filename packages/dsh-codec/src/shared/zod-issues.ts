/**
 * Turns zod issues into validator issues whose messages say where, what was expected and what
 * came. Version-free (pinned by `validator-outputs.test.ts`).
 */
import type { z } from 'zod';
import { describeValue } from './describe-value.js';
import { formatPath, type Issue } from './issue.js';

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/**
 * Maps the issues of `schema.safeParse(value)` to `Issue`s. `prefix` is the path of `value`
 * inside its event or header; `label` names the event ("turn/start at seq 3").
 */
export function fromZodIssues(
  issues: readonly z.core.$ZodIssue[],
  value: unknown,
  prefix: readonly (string | number)[],
  label: string,
  make: (path: (string | number)[], message: string) => Issue,
): Issue[] {
  return issues.map((issue) => {
    const inner = issue.path.map((key) => (typeof key === 'number' ? key : String(key)));
    const path = [...prefix, ...inner];
    let message = issue.message;
    if (issue.code === 'invalid_value' || issue.code === 'invalid_union') {
      message += `, got ${describeValue(valueAt(value, issue.path))}`;
    }
    const where = formatPath(path);
    return make(path, `${label}${where === '' ? '' : `, ${where}`}: ${message}`);
  });
}
