/**
 * @module workspace-moved-note-text
 * The canonical text telling a fork child's model that its working directory moved (SPEC §23
 * "Honest to the model"), for a child written in a tool's own format (a Claude Code user line).
 */

/** The text for a working directory moved from `from` to `to` (two different non-empty paths; a RangeError otherwise). */
export function workspaceMovedNoteText(from: string, to: string): string {
  if (from === '' || to === '' || from === to) throw new RangeError('workspaceMovedNoteText: expected two different non-empty paths');
  return (
    `This session's working directory has moved: the inherited history ran in ${JSON.stringify(from)}, and this branch runs in ${JSON.stringify(to)}. ` +
    `A path under ${JSON.stringify(from)} in the inherited records now stands for the same relative path under ${JSON.stringify(to)}: use the new directory.`
  );
}
