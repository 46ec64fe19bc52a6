import { copyFile, open, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { timeMs } from './measure-rounds.js';

/** A rate and the latency of each operation that produced it. */
export interface RateAndLatencies {
  readonly eventsPerSecond: number;
  readonly latenciesMs: readonly number[];
}

/**
 * The machine's limit for one-event-at-a-time durability: append each line with its own write and
 * wait for `fdatasync` before the next. Returns events per second and each write + fdatasync's latency.
 */
export async function rawAppendPerEvent(path: string, lines: readonly string[]): Promise<RateAndLatencies> {
  const handle = await open(path, 'a');
  const latenciesMs: number[] = [];
  try {
    const ms = await timeMs(async () => {
      for (const line of lines) {
        latenciesMs.push(
          await timeMs(async () => {
            await handle.write(line);
            await handle.datasync();
          }),
        );
      }
    });
    return { eventsPerSecond: lines.length / (ms / 1000), latenciesMs };
  } finally {
    await handle.close();
    await rm(path, { force: true });
  }
}

/**
 * The machine's limit for batched durability: one write of `batchSize` joined lines, then one
 * `fdatasync`, repeated. Returns events per second.
 */
export async function rawAppendPerBatch(path: string, lines: readonly string[], batchSize: number): Promise<number> {
  const handle = await open(path, 'a');
  try {
    const ms = await timeMs(async () => {
      for (let start = 0; start < lines.length; start += batchSize) {
        await handle.write(lines.slice(start, start + batchSize).join(''));
        await handle.datasync();
      }
    });
    return lines.length / (ms / 1000);
  } finally {
    await handle.close();
    await rm(path, { force: true });
  }
}

/**
 * The fork baseline: copy a file, `fsync` the copy and its directory (what a durable copy-fork
 * must do at least). Returns ms; the copy is deleted afterwards, outside the measurement.
 */
export async function copyAndFsync(source: string, target: string): Promise<number> {
  const ms = await timeMs(async () => {
    await copyFile(source, target);
    await fsyncPath(target);
    await fsyncPath(dirname(target));
  });
  await rm(target, { force: true });
  return ms;
}

/** `fsync` of a file or directory by path. */
export async function fsyncPath(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** The open baseline: `JSON.parse` of every non-empty line, nothing else. Returns the parsed count. */
export function parseLines(text: string): number {
  let count = 0;
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    if (end > start) {
      JSON.parse(text.slice(start, end));
      count += 1;
    }
    start = end + 1;
  }
  return count;
}

/**
 * `parseLines`, keeping every parsed line in an array: the least a decoder that returns the events does
 * (the reference for what keeping them costs). Returns the parsed values.
 */
export function parseAndKeepLines(text: string): unknown[] {
  const kept: unknown[] = [];
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    if (end > start) kept.push(JSON.parse(text.slice(start, end)));
    start = end + 1;
  }
  return kept;
}
