/**
 * dsh's events of a chain of native lines, and how two readings' events are compared: what a cut,
 * its prefix search and a repair share (a leaf, so the search and the cut import it, not each other).
 * @module
 */
import type { SessionEvent } from 'dsh-codec';
import { IMPORT_SOURCE_EVENT } from '../import-source.js';
import { importSourceLines } from '../import-transcript.js';
import type { NativeFormat } from './native-format.js';
import type { NativeLine } from './native-line.js';

/** dsh's events of one chain of lines (the main line of their import). */
export function eventsOfLines(format: NativeFormat, lines: readonly NativeLine[]): SessionEvent[] {
  if (lines.length === 0) return [];
  // The lines are parsed already: read as the joined text would be (numbered 1.. in this order).
  const imported = importSourceLines(
    lines.map((line, position) => ({ line: position + 1, value: line.value })),
    [],
    1,
    format.format,
    'native-cut',
  );
  return imported.sessions[0]?.events ?? [];
}

/** The events that close a step or a turn. @internal */
export const CLOSING: ReadonlySet<string> = new Set(['step/end', 'turn/end']);

/** A title event's type. @internal */
export const TITLE = 'session/title';

/** Whether two events of two readings are the same event (titles and the source record by type only). @internal */
export function sameEvent(a: SessionEvent, b: SessionEvent): boolean {
  if (a.type !== b.type) return false;
  return a.type === TITLE || a.type === IMPORT_SOURCE_EVENT || JSON.stringify(a.data) === JSON.stringify(b.data);
}

/** The positions of the events that are not titles (a title's place depends on what the file holds later). @internal */
export function corePositions(events: readonly SessionEvent[]): number[] {
  const positions: number[] = [];
  events.forEach((event, position) => {
    if (event.type !== TITLE) positions.push(position);
  });
  return positions;
}
