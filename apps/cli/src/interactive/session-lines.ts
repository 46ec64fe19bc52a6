/**
 * @module session-lines
 * What interactive mode prints about sessions: the heading after a switch (id, title, event count,
 * last seq), `/events` (every event with its seq) and `/tree` (the fork tree, `*` marking this one).
 */
import type { SessionEvent } from 'dsh-codec';
import { sessionForest, type SessionListItem } from 'dsh-host/core';
import { treeLines } from '../commands/sessions-command.js';
import { describeEvent } from '../describe-event.js';
import type { Paint } from './interactive-output.js';
import type { SessionView } from './interactive-session.js';
import { terminalLine } from '../terminal-text.js';

/** Prints `PREFIX ID  "TITLE"  (N events, last seq N-1)` for the current session. */
export async function showSession(view: SessionView, prefix: string): Promise<void> {
  const observed = await view.host.observe(view.current);
  const title = observed.title === undefined ? '' : `  "${terminalLine(observed.title)}"`;
  const count = observed.events.length;
  view.out(
    view.paint.bold(`${prefix} ${terminalLine(view.current)}${title}`) +
      view.paint.dim(`  (${String(count)} events, last seq ${String(count - 1)})`),
  );
}

/** `/events`: one line per event, its seq first. */
export function eventListing(events: readonly SessionEvent[], paint: Paint): string {
  return events
    .map((event) => `${paint.dim(String(event.seq).padStart(4))}  ${terminalLine(`${event.type.padEnd(18)} ${describeEvent(event)}`)}`)
    .join('\n');
}

/** `/tree`: the fork forest of `items`, the row of `current` marked with `*`. */
export function markedTree(items: readonly SessionListItem[], current: string): string {
  const lines = treeLines(sessionForest(items), new Map(items.map((item) => [item.id, item])));
  return lines.map((row) => (row.includes(terminalLine(current)) ? `${row}  *` : row)).join('\n');
}
