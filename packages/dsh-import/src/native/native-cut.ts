/**
 * Where a native fork cuts: REF (the tool's own entry id) or `seq:N` (an event of dsh's reading)
 * → the source lines the child keeps, and dsh's events through the cut, read by `importTranscript`
 * from exactly those lines — so the closers follow from the same reading `dsh import` makes.
 */
import type { SessionEvent } from 'dsh-codec';
import { ImportError } from '../import-error.js';
import { importTranscript } from '../import-transcript.js';
import type { NativeFormat } from './native-format.js';
import { joinNativeLines, type NativeLine } from './native-line.js';

/** The lines a cut keeps and dsh's events through it (`cut` = the last event's seq, -1 for none). */
export type NativeCut = { kept: NativeLine[]; events: SessionEvent[]; cut: number };

/** dsh's events of one chain of lines (the main line of their import). */
export function eventsOfLines(format: NativeFormat, lines: readonly NativeLine[]): SessionEvent[] {
  if (lines.length === 0) return [];
  const imported = importTranscript(joinNativeLines(lines.map((line) => line.raw)), { format: format.format, sessionId: 'native-cut' });
  return imported.sessions[0]?.events ?? [];
}

// Events that may follow the cut inside the entry that holds it: a call's start (then it is
// closed as not started) and closing brackets (the closer closes them again as forked).
const SPLITTABLE = new Set(['tool/call', 'step/end', 'turn/end']);

/** Resolves `at` in `lines`; an unknown REF or seq is `INVALID_CUT` naming what is valid. */
export function nativeCut(format: NativeFormat, lines: readonly NativeLine[], at: string): NativeCut {
  const seq = /^seq:(\d+)$/.exec(at);
  if (seq === null) {
    const position = format.findRef(lines, at);
    if (position === undefined) throw new ImportError('INVALID_CUT', `--at ${JSON.stringify(at)} names no entry of this ${format.format} file: ${format.refHint(lines, at)}`);
    const kept = format.chainTo(lines, position);
    const events = eventsOfLines(format, kept);
    return { kept, events, cut: events.length - 1 };
  }
  const n = Number(seq[1]);
  const leaf = format.mainLeaf(lines);
  const chain = leaf < 0 ? [] : format.chainTo(lines, leaf);
  const all = eventsOfLines(format, chain);
  if (n >= all.length) {
    throw new ImportError('INVALID_CUT', `--at seq:${String(n)} is past the end: dsh reads this file's main line as seqs 0..${String(all.length - 1)}`);
  }
  // The shortest prefix of the chain whose reading reaches seq n (readings of prefixes only grow).
  let low = 0;
  let high = chain.length - 1;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if (eventsOfLines(format, chain.slice(0, middle + 1)).length > n) high = middle;
    else low = middle + 1;
  }
  const kept = chain.slice(0, low + 1);
  const events = eventsOfLines(format, kept);
  const after = events.slice(n + 1);
  if (after.some((event) => !SPLITTABLE.has(event.type))) {
    const first = eventsOfLines(format, kept.slice(0, -1)).length;
    throw new ImportError(
      'INVALID_CUT',
      `--at seq:${String(n)} falls inside one ${format.format} entry (line ${String((kept[kept.length - 1] as NativeLine).index + 1)}, which also holds seq ${String(first)}…${String(events.length - 1)}: ${after.map((event) => event.type).join(', ')}); the file cannot be cut there — expected seq:${String(events.length - 1)} or a seq before that entry`,
    );
  }
  return { kept, events: events.slice(0, n + 1), cut: n };
}
