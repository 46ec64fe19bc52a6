/**
 * `writeCreatedSummary`: the summary file of a log `create` just published, from what the create
 * had in hand — its events, or for a fork child its parent's summary file (when it covers the cut and
 * the parent's latest title and cwd config lie inside the inherited prefix) plus the child's own
 * events — so a new session or fork is listed without its log being read. Best effort: when the parts
 * cannot be known without reading, nothing is written and the first listing rebuilds it.
 */
import { open } from 'node:fs/promises';
import { encodeHeader, serializeEvent, type SessionEvent, type SessionHeader } from 'dsh-codec';
import type { InheritedRecords } from '../fast-backend.js';
import { NEWLINE } from './jsonl-log-bytes.js';
import { logFile } from './jsonl-paths.js';
import { readSummaryFile, writeSummaryFile, type SummaryFile, type SummaryLine } from './jsonl-summary-file.js';

function lineOf(event: SessionEvent): SummaryLine {
  return { seq: event.seq, line: serializeEvent(event).slice(0, -1) };
}

/** Folds `events` (in seq order, after what `summary` holds) into `summary`. */
function foldEvents(summary: SummaryFile, events: readonly SessionEvent[]): void {
  for (const event of events) {
    if (event.type === 'session/title') summary.title = lineOf(event);
    else if (event.type === 'session/config' && typeof (event.data as { cwd?: unknown }).cwd === 'string')
      summary.cwdConfig = lineOf(event);
    else if (event.type === 'turn/start') summary.turnStart = event.seq;
    else if (event.type === 'turn/end') summary.turnEnd = event.seq;
  }
  const last = events.at(-1);
  if (last !== undefined) summary.last = lineOf(last);
}

/** The first line of `path` without its `\n` (a header: under a page, else read whole up to 1 MiB), or undefined. */
async function firstLine(path: string): Promise<string | undefined> {
  const handle = await open(path, 'r');
  try {
    const bytes = Buffer.alloc(1 << 20);
    const { bytesRead } = await handle.read(bytes, 0, bytes.length, 0);
    const end = bytes.subarray(0, bytesRead).indexOf(NEWLINE);
    return end === -1 ? undefined : bytes.toString('utf8', 0, end);
  } finally {
    await handle.close();
  }
}

/**
 * What the inherited prefix (seqs below `count`) of `parent`'s log contributes, from its summary
 * file when that file describes the parent's current log and settles the prefix's latest title and
 * cwd config; undefined otherwise. Turn seqs of the prefix are not needed: a fork's seed closes its
 * inherited turn, so only the child's own turns decide whether it needs repair.
 */
async function inheritedPart(dir: string, parent: string, count: number): Promise<Pick<SummaryFile, 'title' | 'cwdConfig'> | undefined> {
  const summary = await readSummaryFile(dir, parent);
  if (summary?.last === undefined || summary.last.seq < count - 1) return undefined;
  if ((summary.title?.seq ?? -1) >= count || (summary.cwdConfig?.seq ?? -1) >= count) return undefined;
  if ((await firstLine(logFile(dir, parent))) !== summary.header) return undefined;
  return {
    ...(summary.title === undefined ? {} : { title: summary.title }),
    ...(summary.cwdConfig === undefined ? {} : { cwdConfig: summary.cwdConfig }),
  };
}

/**
 * Writes the summary file of session `id`, just created with `header`, `inherited` and `events` in
 * `size` bytes (`headerLine`: its file's header line when it is a manifest naming segments); never throws.
 */
export async function writeCreatedSummary(
  dir: string,
  id: string,
  header: SessionHeader,
  events: readonly SessionEvent[],
  inherited: InheritedRecords | undefined,
  size: number,
  headerLine: string = encodeHeader(header),
): Promise<void> {
  try {
    let summary: SummaryFile = { size, header: headerLine.slice(0, -1), turnStart: -1, turnEnd: -1 };
    if (inherited !== undefined && inherited.count > 0) {
      if (header.parentSession === undefined) return;
      const part = await inheritedPart(dir, header.parentSession, inherited.count);
      if (part === undefined) return;
      summary = { ...summary, ...part };
    }
    foldEvents(summary, events);
    // A fork inheriting every event and adding none would need its last inherited line: not known here.
    if (summary.last === undefined && (inherited?.count ?? 0) > 0) return;
    await writeSummaryFile(dir, id, summary);
  } catch {
    // A cache: the first listing rebuilds what was not written.
  }
}
