import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runMeasuredProcess, writeMeasuredWrapper } from './run-measured-process.js';

const MiB = 1024 * 1024;
let dir: string | undefined;

afterEach(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('runMeasuredProcess', () => {
  it('reports the peak RSS of the process itself, not the spawning process’s (Linux keeps ru_maxrss across exec)', async () => {
    dir = await mkdtemp(join(tmpdir(), 'dsh-measured-'));
    const wrapper = await writeMeasuredWrapper(dir);
    await writeFile(join(dir, 'noop.mjs'), '');
    await writeFile(join(dir, 'alloc.mjs'), 'globalThis.kept = Buffer.alloc(96 * 1024 * 1024, 1);\n');
    // The bench holds a large history while it spawns: 256 MiB touched here.
    const held = Buffer.alloc(256 * MiB, 1);
    const noop = await runMeasuredProcess(wrapper, join(dir, 'noop.mjs'), [], dir);
    const alloc = await runMeasuredProcess(wrapper, join(dir, 'alloc.mjs'), [], dir);
    expect(held.length).toBe(256 * MiB);
    expect(noop.peakRssBytes).toBeLessThan(200 * MiB);
    expect(alloc.peakRssBytes - noop.peakRssBytes).toBeGreaterThan(80 * MiB);
    expect(alloc.peakRssBytes).toBeLessThan(noop.peakRssBytes + 200 * MiB);
  });
});
