/**
 * The canonical workspace texts of format V6 (SPEC §23 "Honest to the model"), frozen with V6: the
 * sentence a fork closer adds when the child's files are the workspace at the cut, and the texts of
 * `session/note`. Paths are quoted as JSON strings, so no path can add a line or a sentence of its own.
 */
import { describeValue } from '../shared/describe-value.js';
import type { SessionNoteData } from '../types.js';

/** Added (after one space) to a forked closer's text when the child's files are the workspace at the cut. */
export const FORKED_WORKSPACE_AT_CUT_SENTENCE =
  "This branch's files are as they were before this call started: running it again here does not " +
  'apply its changes to these files twice, but it may repeat any effect it had outside them.';

/** At most this many paths are named by a `workspace-stale` note; the rest are counted in `more`. */
export const WORKSPACE_STALE_MAX_PATHS = 50;

/**
 * The canonical text of a `workspace-stale` note naming `paths` (1–50, in the given order) and
 * `more` further paths (a positive count, only after 50 paths). Throws a RangeError otherwise.
 */
export function workspaceStaleNoteText(paths: readonly string[], more?: number): string {
  const problem = staleNoteProblem(paths, more);
  if (problem !== undefined) throw new RangeError(`workspaceStaleNoteText: ${problem}`);
  const named = paths.map((path) => JSON.stringify(path)).join(', ');
  const rest = more === undefined ? '' : `, and ${String(more)} more`;
  return (
    `Files that the inherited history touched have changed since this session was forked from its parent: ${named}${rest}. ` +
    'The inherited tool results about them may be stale: read them again before relying on those results.'
  );
}

/** The canonical text of a `workspace-moved` note: the working directory moved from `from` to `to` (two different non-empty paths). */
export function workspaceMovedNoteText(from: string, to: string): string {
  const problem = movedNoteProblem(from, to);
  if (problem !== undefined) throw new RangeError(`workspaceMovedNoteText: ${problem}`);
  return (
    `This session's working directory has moved: the inherited history ran in ${JSON.stringify(from)}, and this branch runs in ${JSON.stringify(to)}. ` +
    `A path under ${JSON.stringify(from)} in the inherited records now stands for the same relative path under ${JSON.stringify(to)}: use the new directory.`
  );
}

/** What is wrong with a stale note's `paths` and `more`, or `undefined` when they are sound. */
export function staleNoteProblem(paths: readonly unknown[], more: unknown): string | undefined {
  if (!Array.isArray(paths)) return 'expected an array of paths';
  if (paths.length === 0 || paths.length > WORKSPACE_STALE_MAX_PATHS) {
    return `expected 1 to ${String(WORKSPACE_STALE_MAX_PATHS)} paths, got ${String(paths.length)}`;
  }
  const bad = paths.findIndex((path) => typeof path !== 'string' || path === '');
  if (bad !== -1) return `expected non-empty path strings, got ${describeValue(paths[bad])} at index ${String(bad)}`;
  if (more === undefined) return undefined;
  if (!Number.isSafeInteger(more) || (more as number) < 1) return `expected more to be a positive integer, got ${describeValue(more)}`;
  if (paths.length !== WORKSPACE_STALE_MAX_PATHS) {
    return `more counts paths beyond the first ${String(WORKSPACE_STALE_MAX_PATHS)}, but only ${String(paths.length)} are named`;
  }
  return undefined;
}

/** What is wrong with a moved note's `from` and `to`, or `undefined` when they are sound. */
export function movedNoteProblem(from: unknown, to: unknown): string | undefined {
  if (typeof from !== 'string' || from === '' || typeof to !== 'string' || to === '') return 'expected two non-empty paths';
  return from === to ? `expected two different directories, got ${JSON.stringify(from)} twice` : undefined;
}

/** The canonical text of a note's data (its `text` aside), or `undefined` when the data admits none. */
export function canonicalNoteText(data: SessionNoteData): string | undefined {
  if (data.kind === 'workspace-stale') {
    return staleNoteProblem(data.paths, data.more) === undefined ? workspaceStaleNoteText(data.paths, data.more) : undefined;
  }
  return movedNoteProblem(data.from, data.to) === undefined ? workspaceMovedNoteText(data.from, data.to) : undefined;
}

/**
 * The `workspace-stale` note for `changed` (every changed path the caller found, in the order to
 * name them): the first 50 named, the rest counted. Throws a RangeError for an empty list.
 */
export function workspaceStaleNote(changed: readonly string[]): SessionNoteData {
  const paths = changed.slice(0, WORKSPACE_STALE_MAX_PATHS);
  const more = changed.length > WORKSPACE_STALE_MAX_PATHS ? changed.length - WORKSPACE_STALE_MAX_PATHS : undefined;
  const text = workspaceStaleNoteText(paths, more);
  return more === undefined ? { kind: 'workspace-stale', text, paths } : { kind: 'workspace-stale', text, paths, more };
}

/** The `workspace-moved` note for a working directory moved from `from` to `to`. */
export function workspaceMovedNote(from: string, to: string): SessionNoteData {
  return { kind: 'workspace-moved', text: workspaceMovedNoteText(from, to), from, to };
}
