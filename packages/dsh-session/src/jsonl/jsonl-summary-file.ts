/**
 * The summary file of a JSONL log (`<dir>/.summaries/<id>`): what `list()` shows of a session — its
 * header line, last event, latest title, latest config naming a cwd and latest turn start and end —
 * as of the first `size` bytes of its log. A cache like the verified stamp: written best effort, a
 * lost or stale one costs one rebuild (`read-jsonl-summary.ts`,
 * `docs/decisions/2026-12-07-jsonl-summary-files.md`).
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The folder of the summary files, beside the leases and stamps. */
export const SUMMARIES = '.summaries';

/** One stored line of a log: its event's seq and its text without the line end. */
export type SummaryLine = { seq: number; line: string };

/** What a summary file records of the first `size` bytes of a log (lines without their `\n`). */
export type SummaryFile = {
  size: number;
  header: string;
  last?: SummaryLine;
  title?: SummaryLine;
  cwdConfig?: SummaryLine;
  turnStart: number;
  turnEnd: number;
};

function summaryPath(dir: string, id: string): string {
  return join(dir, SUMMARIES, id);
}

function isSummaryLine(value: unknown): value is SummaryLine {
  if (typeof value !== 'object' || value === null) return false;
  const { seq, line } = value as Record<string, unknown>;
  return Number.isSafeInteger(seq) && (seq as number) >= 0 && typeof line === 'string';
}

/** The summary file of `id`, or undefined when there is none or it is not one. */
export async function readSummaryFile(dir: string, id: string): Promise<SummaryFile | undefined> {
  let text: string;
  try {
    text = await readFile(summaryPath(dir, id), 'utf8');
  } catch {
    return undefined;
  }
  return summaryFileOf(text);
}

/** `readSummaryFile` without a thread-pool round trip: what a listing asks once per session. */
export function readSummaryFileSync(dir: string, id: string): SummaryFile | undefined {
  let text: string;
  try {
    text = readFileSync(summaryPath(dir, id), 'utf8');
  } catch {
    return undefined;
  }
  return summaryFileOf(text);
}

/** The text of a summary file as one; undefined when it is not one. */
function summaryFileOf(text: string): SummaryFile | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { v, size, header, last, title, cwdConfig, turnStart, turnEnd } = value as Record<string, unknown>;
  if (v !== 1 || !Number.isSafeInteger(size) || typeof header !== 'string') return undefined;
  if (!Number.isSafeInteger(turnStart) || !Number.isSafeInteger(turnEnd)) return undefined;
  for (const line of [last, title, cwdConfig]) if (line !== undefined && !isSummaryLine(line)) return undefined;
  return {
    size: size as number,
    header,
    ...(last === undefined ? {} : { last: last as SummaryLine }),
    ...(title === undefined ? {} : { title: title as SummaryLine }),
    ...(cwdConfig === undefined ? {} : { cwdConfig: cwdConfig as SummaryLine }),
    turnStart: turnStart as number,
    turnEnd: turnEnd as number,
  };
}

/** Records `summary` for `id`; never throws (a summary file is a cache). */
export async function writeSummaryFile(dir: string, id: string, summary: SummaryFile): Promise<void> {
  const path = summaryPath(dir, id);
  const temp = `${path}.${randomUUID()}.tmp`;
  try {
    await mkdir(join(dir, SUMMARIES), { recursive: true });
    // `wx`: a planted name (a symlink) is never written through; the summary is then skipped.
    await writeFile(temp, JSON.stringify({ v: 1, ...summary }), { flag: 'wx' });
    await rename(temp, path);
  } catch {
    await unlink(temp).catch(() => undefined);
  }
}

/** Forgets the summary of a deleted log. */
export async function removeSummaryFile(dir: string, id: string): Promise<void> {
  await unlink(summaryPath(dir, id)).catch(() => undefined);
}

/** Removes summary temp files a process left when it died between writing and renaming one. */
export async function removeSummaryTemps(dir: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(join(dir, SUMMARIES));
  } catch {
    return;
  }
  for (const name of names) if (name.endsWith('.tmp')) await unlink(join(dir, SUMMARIES, name)).catch(() => undefined);
}
