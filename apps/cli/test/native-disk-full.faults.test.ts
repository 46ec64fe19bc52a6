// A full disk under `dsh fork FILE`: the child cannot be written. The fork must fail WRITE_FAILED
// (not INTERNAL), leave nothing in the folder but the source (no temp file, no partial child) and
// never touch the source. Each trial's disk leaves less room than the child needs, at another margin.
import { readdir, readFile, statfs, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { claudeCodeTranscript, faultTrials, mountSmallDisk, printSkip, reportFaults, runDsh, type SmallDisk } from '@dsh/test-utils';

let disk: SmallDisk | undefined;
afterEach(async () => {
  await disk?.remove();
  disk = undefined;
});

const SOURCE_ID = '5f0c3a52-7d4e-4b8a-9c61-2e8f4a1b3c7d';

describe('dsh fork FILE on a full disk', () => {
  it('fails WRITE_FAILED, leaves only the source in the folder and the source as it was', { timeout: 300_000 }, async (context) => {
    const trials = faultTrials(3, 12);
    let escapes = 0;
    let halfWritten = 0;
    for (let trial = 0; trial < trials; trial++) {
      const { text } = claudeCodeTranscript({ turns: 40 + trial * 7 });
      const bytes = Buffer.byteLength(text);
      // Room for the source and a part of the child: from a few bytes to most of it.
      const mounted = await mountSmallDisk(Math.ceil((bytes + (bytes * (trial % 4)) / 5) / 1024) + 8);
      if ('reason' in mounted) {
        printSkip('native-disk-full', mounted.reason);
        context.skip();
        return;
      }
      disk = mounted;
      const file = join(mounted.path, `${SOURCE_ID}.jsonl`);
      await writeFile(file, text);
      const free = await statfs(mounted.path);
      expect(free.bavail * free.bsize).toBeLessThan(bytes);
      const at = [...text.matchAll(/"uuid":"([^"]+)"/g)].at(-1)?.[1] as string;
      const result = await runDsh(['fork', file, '--at', at]);
      if (result.code !== 1 || !result.stderr.includes('WRITE_FAILED')) escapes++;
      const names = await readdir(mounted.path);
      if (names.length !== 1 || names[0] !== `${SOURCE_ID}.jsonl`) halfWritten++;
      expect(await readFile(file, 'utf8')).toBe(text);
      await mounted.remove();
      disk = undefined;
    }
    reportFaults('native-disk-full', { trials, escapes, halfWritten });
    expect({ escapes, halfWritten }).toStrictEqual({ escapes: 0, halfWritten: 0 });
  });
});
