/**
 * @module `summaryOfManifest`: the summary file of a manifest-form log (`jsonl-manifest.ts`) rebuilt
 * from its own lines and its segments' indexes (`segments/segment-index.ts`) — the latest title and
 * cwd config read alone as the index vouches for them, turn seqs from the index — so a missing summary
 * (a fork child whose parent's summary could not settle its prefix, a lost cache file) costs a few
 * small reads, never the whole history. A segment is read whole (verified by its digest) only when
 * its index is missing or cannot tell: when the log's last event is its last line, when a kept config
 * names no cwd, or when the segment is named only in part and a type occurs on both sides of the cut.
 */
import type { SealedSegment } from 'dsh-codec';
import type { SummaryFile, SummaryLine } from './jsonl-summary-file.js';
import type { Manifest } from './jsonl-manifest.js';
import { NEWLINE } from './jsonl-log-bytes.js';
import { readSegment } from './segments/read-segment.js';
import { latestLineOf, readKeptLineSync, readSegmentIndexSync } from './segments/segment-index.js';
import type { SegmentStore } from './segments/segment-store.js';
import { ENVELOPE, findLastLine, namesCwd, summaryOfVerified } from './verified-summary-lines.js';

/** Whether `summary` still lacks something an earlier segment may hold. */
function incomplete(summary: SummaryFile): boolean {
  return (
    summary.last === undefined ||
    summary.title === undefined ||
    summary.cwdConfig === undefined ||
    summary.turnStart === -1 ||
    summary.turnEnd === -1
  );
}

/** The kept line at `line` of segment `ref` (whose first line is event `first`), read alone and checked; undefined when it cannot be. */
function keptLine(
  store: SegmentStore,
  ref: SealedSegment,
  first: number,
  kept: ReturnType<typeof readSegmentIndexSync>,
  line: number,
): SummaryLine | undefined {
  const at = kept?.kept.get(line);
  if (at === undefined) return undefined;
  const text = readKeptLineSync(store, ref.digest, ref.bytes, at);
  if (text === undefined || Number(ENVELOPE.exec(text)?.[1] ?? -1) !== first + line) return undefined;
  return { seq: first + line, line: text };
}

/**
 * Fills what `summary` lacks from segment `ref` (its first line is event `first`) by its index alone;
 * false, changing nothing, when the index cannot tell (then the segment is read whole).
 */
function foldByIndex(store: SegmentStore, ref: SealedSegment, first: number, summary: SummaryFile): boolean {
  if (summary.last === undefined) return false;
  const index = readSegmentIndexSync(store, ref.digest, ref.lines);
  if (index === undefined) return false;
  const latest = (type: string): number | undefined => latestLineOf(index, [type], ref.lines);
  const found: Partial<SummaryFile> = {};
  for (const [key, type] of [
    ['turnStart', 'turn/start'],
    ['turnEnd', 'turn/end'],
  ] as const) {
    if (summary[key] !== -1) continue;
    const line = latest(type);
    if (line === undefined) return false;
    if (line !== -1) found[key] = first + line;
  }
  for (const [key, type] of [
    ['title', 'session/title'],
    ['cwdConfig', 'session/config'],
  ] as const) {
    if (summary[key] !== undefined) continue;
    const line = latest(type);
    if (line === undefined) return false;
    if (line === -1) continue;
    const at = keptLine(store, ref, first, index, line);
    // A config naming no cwd: an earlier one of this segment may; only its lines say which.
    if (at === undefined || (key === 'cwdConfig' && !namesCwd(at.line))) return false;
    found[key] = at;
  }
  Object.assign(summary, found);
  return true;
}

/** Fills what `summary` lacks from `bytes`, the verified lines of a segment. */
function foldWhole(bytes: Buffer, summary: SummaryFile): void {
  if (summary.last === undefined && bytes.length > 0) {
    const start = bytes.lastIndexOf(NEWLINE, bytes.length - 2) + 1;
    const line = bytes.toString('utf8', start, bytes.length - 1);
    summary.last = { seq: Number(ENVELOPE.exec(line)?.[1] ?? -1), line };
  }
  const title = summary.title ?? findLastLine(bytes, 0, 'session/title');
  if (title !== undefined) summary.title = title;
  const cwdConfig = summary.cwdConfig ?? findLastLine(bytes, 0, 'session/config', namesCwd);
  if (cwdConfig !== undefined) summary.cwdConfig = cwdConfig;
  if (summary.turnStart === -1) summary.turnStart = findLastLine(bytes, 0, 'turn/start')?.seq ?? -1;
  if (summary.turnEnd === -1) summary.turnEnd = findLastLine(bytes, 0, 'turn/end')?.seq ?? -1;
}

/**
 * The summary of the manifest-form log in `bytes` (its file, which its verified stamp vouches for):
 * its own lines first, then its segments from the last back, until nothing is lacking. A segment read
 * whole is verified by its digest (`CORRUPT` when it is damaged).
 */
export async function summaryOfManifest(store: SegmentStore, bytes: Buffer, manifest: Manifest): Promise<SummaryFile> {
  const summary = summaryOfVerified(bytes, manifest.headerEnd - 1);
  let first = manifest.lines;
  for (let at = manifest.segments.length - 1; at >= 0 && incomplete(summary); at--) {
    const ref = manifest.segments[at] as SealedSegment;
    first -= ref.lines;
    if (!foldByIndex(store, ref, first, summary)) foldWhole(await readSegment(store, ref), summary);
  }
  return summary;
}
