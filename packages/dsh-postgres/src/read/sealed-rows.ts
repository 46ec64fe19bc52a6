/**
 * What a reader takes as written by dsh-postgres from validated data and unchanged since: a header
 * row holding the canonical current line, an event row whose seal still holds and whose body is the
 * line `serializeEvent` wrote for its seq. Checks that cost no parse of the body.
 */
import { encodeHeader, type SessionEvent, type SessionHeader } from 'dsh-codec';

/** A current-version header whose canonical line is `line` (as dsh-postgres stores it); undefined for anything else. @internal */
export function canonicalHeader(line: string): SessionHeader | undefined {
  try {
    const header = JSON.parse(line) as SessionHeader;
    // encodeHeader checks a current-version header in full (any other version is refused).
    return encodeHeader(header) === line ? header : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the event row at `seq` can be trusted as validated: its seal holds and its body is that seq's `serializeEvent` line. @internal */
export function isSealedLine(seq: number, body: string, sealed: boolean | null): boolean {
  return sealed === true && body.startsWith(`{"seq":${String(seq)},`) && body.endsWith('}\n');
}

/**
 * How a sealed log comes back: `lines` unparsed (an observation or a fork parses only what it reads),
 * or `records` parsed (`open` keeps every event).
 */
export type SealedForm = 'lines' | 'records';

/** What a sealed read found: the session's row, and its rows from `from` on when all of them can be trusted. @internal */
export type SealedRead = {
  headerLine: string;
  segment: string;
  nextSeq: number;
  /** The rows' lines (`lines`) or parsed events (`records`), index `i` holding seq `from + i`; undefined when untrusted. */
  rows: { lines: string[]; events: SessionEvent[] } | undefined;
};

/** A sealed read as its rows arrive: the session's row once seen, what was placed, whether all of it can still be trusted, how many rows came. @internal */
export type SealedRows = {
  form: SealedForm;
  from: number;
  head?: { headerLine: string; segment: string; nextSeq: number };
  lines: string[];
  events: SessionEvent[];
  trusted: boolean;
  rows: number;
};

/** An empty read of `form` from seq `from` on. @internal */
export function sealedRows(form: SealedForm, from: number): SealedRows {
  return { form, from, lines: [], events: [], trusted: true, rows: 0 };
}

/** Takes the session row's `segment:next_seq`. @internal */
export function placeHead(read: SealedRows, headerLine: string, source: string): void {
  const [segment = '', nextSeq = ''] = source.split(':');
  read.head = { headerLine, segment, nextSeq: Number(nextSeq) };
}

/**
 * Places the line of event `seq` (its seal verdict `sealed`): kept as it is, or parsed; the read
 * stops being trusted when the line is not sealed or not that seq's. @internal
 */
export function placeLine(read: SealedRows, seq: number, line: string, sealed: boolean | null): void {
  if (!isSealedLine(seq, line, sealed)) {
    read.trusted = false;
  } else if (read.form === 'lines') {
    read.lines[seq - read.from] = line;
  } else {
    try {
      read.events[seq - read.from] = JSON.parse(line) as SessionEvent;
    } catch {
      read.trusted = false;
    }
  }
}

/**
 * The read's result, undefined when the session was not found. Rows are unique per (segment, seq) and
 * each chain link owns a disjoint range: n rows placed in an array of length n with every seq below
 * next_seq are exactly from .. next_seq - 1. @internal
 */
export function sealedResult(read: SealedRows): SealedRead | undefined {
  const { head, lines, events, trusted, rows } = read;
  if (head === undefined) return undefined;
  const placed = read.form === 'lines' ? lines.length : events.length;
  const complete = trusted && placed === rows && read.from + rows === head.nextSeq;
  return { ...head, rows: complete ? { lines, events } : undefined };
}
