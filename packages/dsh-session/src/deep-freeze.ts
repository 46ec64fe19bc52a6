/**
 * Freezes a JSON tree in place so a logged event can be shared by reference (forks reuse prefix
 * events). Stops at subtrees that are already frozen: events this package froze are frozen throughout.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const child of Object.values(value)) deepFreeze(child);
  return value;
}
