/**
 * @module verified-summary-lines: what a summary file records (`jsonl-summary-file.ts`), found in
 * bytes a dsh writer validated — a whole verified log, a manifest's own lines or one sealed segment —
 * by each line's envelope (`{"seq":N,"type":…`, where `serializeEvent` puts it).
 */
import { NEWLINE } from './jsonl-log-bytes.js';
import type { SummaryFile, SummaryLine } from './jsonl-summary-file.js';

/** The envelope of a stored line: `{"seq":N,"type":"…",` where `serializeEvent` puts them. */
export const ENVELOPE = /^\{"seq":(\d+),"type":("(?:[^"\\]|\\.)*"),/;

/**
 * The latest line of an event of `type` in verified `bytes` (events from `start` on), found by its
 * envelope: text inside an event's data (a nested object) is skipped.
 */
export function findLastLine(
  bytes: Buffer,
  start: number,
  type: string,
  accept: (line: string) => boolean = () => true,
): SummaryLine | undefined {
  const needle = `,"type":${JSON.stringify(type)},`;
  for (let position = bytes.length - 1; position >= start;) {
    const found = bytes.lastIndexOf(needle, position, 'utf8');
    if (found < start) return undefined;
    const lineStart = bytes.lastIndexOf(NEWLINE, found) + 1;
    const lineEnd = bytes.indexOf(NEWLINE, found);
    const line = bytes.toString('utf8', lineStart, lineEnd);
    const envelope = ENVELOPE.exec(line);
    if (envelope !== null && lineStart + envelope[0].length === found + needle.length && accept(line))
      return { seq: Number(envelope[1]), line };
    position = found - 1;
  }
  return undefined;
}

export function namesCwd(line: string): boolean {
  const { data } = JSON.parse(line) as { data?: { cwd?: unknown } };
  return typeof data?.cwd === 'string';
}

/** The summary of a whole log's `bytes`, which its verified stamp vouches for (current format, LF, every line validated). */
export function summaryOfVerified(bytes: Buffer, headerEnd: number): SummaryFile {
  const header = bytes.toString('utf8', 0, headerEnd);
  const start = headerEnd + 1;
  const summary: SummaryFile = { size: bytes.length, header, turnStart: -1, turnEnd: -1 };
  if (bytes.length <= start) return summary;
  const lastStart = bytes.lastIndexOf(NEWLINE, bytes.length - 2) + 1;
  const line = bytes.toString('utf8', lastStart, bytes.length - 1);
  summary.last = { seq: Number(ENVELOPE.exec(line)?.[1] ?? -1), line };
  const title = findLastLine(bytes, start, 'session/title');
  if (title !== undefined) summary.title = title;
  const cwdConfig = findLastLine(bytes, start, 'session/config', namesCwd);
  if (cwdConfig !== undefined) summary.cwdConfig = cwdConfig;
  summary.turnStart = findLastLine(bytes, start, 'turn/start')?.seq ?? -1;
  summary.turnEnd = findLastLine(bytes, start, 'turn/end')?.seq ?? -1;
  return summary;
}
