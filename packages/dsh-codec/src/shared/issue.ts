/**
 * The issue record every frozen validator returns, and the helpers that build it. Version-free:
 * every version folder imports it, and what it renders is pinned by `validator-outputs.test.ts`.
 */

/** One problem found by a validator: its code, where it is, and what was expected and received. */
export type Issue = {
  code: 'INVALID_HEADER' | 'INVALID_EVENT' | 'INVALID_RELATIONSHIP';
  path: (string | number)[];
  seq?: number;
  message: string;
};

/** An issue about the header at `path` (relative to the header). */
export function headerIssue(path: (string | number)[], message: string): Issue {
  return { code: 'INVALID_HEADER', path: ['header', ...path], message };
}

/** An issue about the event at `index`; `path` is relative to the event. */
export function eventIssue(index: number, path: (string | number)[], message: string): Issue {
  return { code: 'INVALID_EVENT', path: ['events', index, ...path], seq: index, message };
}

/** A relationship issue about the event at `index`; `path` is relative to the event. */
export function relationshipIssue(index: number, path: (string | number)[], message: string): Issue {
  return { code: 'INVALID_RELATIONSHIP', path: ['events', index, ...path], seq: index, message };
}

/** `data.message.content[0].type` style rendering of a path relative to an event or header. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${String(key)}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out;
}
