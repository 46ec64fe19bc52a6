/**
 * Lines of a transcript → dsh sessions. The main line is `sessions[0]`; every other line becomes a
 * fork child of the session it shares the longest event prefix with, cut at the last event of that
 * prefix where no turn is open, so the child's inherited events are its parent's exactly.
 */
import type { SessionEvent, SessionHeader, ToolEffect } from 'dsh-codec';
import { CURRENT_FORMAT_VERSION } from 'dsh-codec/format-version';
import type { SourceItem } from './source-item.js';
import { writeEvents } from './write-events.js';

/** One imported session as `importTranscript` returns it. */
export type ImportedSession = { header: SessionHeader; events: SessionEvent[] };

/** What `buildSessions` needs to know about the source besides its lines. */
export type BuildOptions = {
  sessionId: string;
  cwd: string | undefined;
  /** Used when a session has no timed event. */
  createdAt: number;
  effectOf: (name: string) => ToolEffect;
};

type Built = { session: ImportedSession; own: SessionEvent[]; storedSeq: number[] };

function sameEvent(a: SessionEvent, b: SessionEvent): boolean {
  return (
    a.type === b.type &&
    a.time === b.time &&
    JSON.stringify(a.data) === JSON.stringify(b.data) &&
    JSON.stringify(a.surfaceOp) === JSON.stringify(b.surfaceOp)
  );
}

/** `event` at `seq`, with the seqs it names (surface replace range, compaction brackets) mapped too. */
function renumber(event: SessionEvent, seq: number, map: (seq: number) => number): SessionEvent {
  const moved: { -readonly [K in keyof SessionEvent]: SessionEvent[K] } = { ...event, seq };
  if (event.surfaceOp !== undefined) moved.surfaceOp = { op: 'replace', start: map(event.surfaceOp.start), end: map(event.surfaceOp.end) };
  const data = event.data;
  if (event.type.startsWith('compaction/') && typeof data === 'object' && data !== null && !Array.isArray(data)) {
    const copy = { ...data };
    if (typeof copy.startSeq === 'number') copy.startSeq = map(copy.startSeq);
    const replace = copy.replace;
    if (
      typeof replace === 'object' &&
      replace !== null &&
      !Array.isArray(replace) &&
      typeof replace.start === 'number' &&
      typeof replace.end === 'number'
    ) {
      copy.replace = { start: map(replace.start), end: map(replace.end) };
    }
    moved.data = copy;
  }
  return moved;
}

/** For each index, whether a turn is open after that event. */
function turnOpenAfter(events: readonly SessionEvent[]): boolean[] {
  let open = false;
  return events.map((event) => {
    if (event.type === 'turn/start') open = true;
    else if (event.type === 'turn/end') open = false;
    return open;
  });
}

function header(
  id: string,
  createdAt: number,
  cwd: string | undefined,
  lineage?: { parentSession: string; forkCut: number },
): SessionHeader {
  return {
    format: 'dsh-session',
    version: CURRENT_FORMAT_VERSION,
    id,
    createdAt,
    ...(cwd === undefined ? {} : { cwd }),
    ...(lineage === undefined ? {} : { parentSession: lineage.parentSession, forkCut: lineage.forkCut }),
    inheritedEventCount: lineage === undefined ? 0 : lineage.forkCut + 1,
  };
}

/** Builds every session of `lines` (main line first) from the items each line's entries produce. */
export function buildSessions(
  lines: readonly (readonly SourceItem[])[],
  options: BuildOptions,
): { sessions: ImportedSession[]; warnings: string[] } {
  const built: Built[] = [];
  const warnings: string[] = [];
  lines.forEach((items, index) => {
    const written = writeEvents(items, options.effectOf);
    for (const warning of written.warnings) if (!warnings.includes(warning)) warnings.push(warning);
    const own = written.events;
    const firstTime = own[0]?.time ?? options.createdAt;
    if (index === 0) {
      built.push({
        session: { header: header(options.sessionId, firstTime, options.cwd), events: own },
        own,
        storedSeq: own.map((e) => e.seq),
      });
      return;
    }
    // The parent: the session sharing the longest prefix of events with this line.
    let parent = built[0] as Built;
    let common = -1;
    for (const candidate of built) {
      let n = 0;
      const limit = Math.min(candidate.own.length, own.length);
      while (n < limit && sameEvent(candidate.own[n] as SessionEvent, own[n] as SessionEvent)) n++;
      if (n > common) {
        common = n;
        parent = candidate;
      }
    }
    const open = turnOpenAfter(own);
    let cut = common - 1;
    while (cut >= 0 && open[cut] === true) cut--;
    const storedCut = cut < 0 ? -1 : (parent.storedSeq[cut] as number);
    const events: SessionEvent[] = parent.session.events.slice(0, storedCut + 1);
    const markerTime = storedCut < 0 ? (own[0]?.time ?? options.createdAt) : (events[storedCut] as SessionEvent).time;
    events.push({ seq: storedCut + 1, type: 'session/end-seed', time: markerTime, data: { inherited: true } });
    const storedSeq = own.map((_, i) => (i <= cut ? (parent.storedSeq[i] as number) : 0));
    for (let i = cut + 1; i < own.length; i++) {
      const event = own[i] as SessionEvent;
      storedSeq[i] = events.length;
      events.push(renumber(event, events.length, (seq) => storedSeq[seq] ?? seq));
    }
    const id = `${options.sessionId}-branch-${index}`;
    const createdAt = own[cut + 1]?.time ?? markerTime;
    built.push({
      session: { header: header(id, createdAt, options.cwd, { parentSession: parent.session.header.id, forkCut: storedCut }), events },
      own,
      storedSeq,
    });
  });
  return { sessions: built.map((b) => b.session), warnings };
}
