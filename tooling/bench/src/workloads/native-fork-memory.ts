/**
 * Peak memory of `dsh fork FILE`'s steps (SPEC §24: within 4× FILE's size, or `FILE_TOO_LARGE`),
 * each in its own process: the fork (a `nativeFileReader` read in 16 MiB chunks, then its `fork`)
 * and, as the baseline, a process that only reads the file into fresh memory. Printed as notes:
 * peak RSS ÷ file size, and what the fork adds over the read ÷ file size.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { formatBytes } from '../harness/format.js';
import { runMeasuredProcess, writeMeasuredWrapper } from '../harness/run-measured-process.js';

/** `node script.mjs IMPORT_URL FILE AT fork|read`: prints `{ ok }` or the refusal's code and message. */
const FORK_SCRIPT = `import { openSync, readSync, fstatSync, closeSync } from 'node:fs';
const [importUrl, file, at, mode] = process.argv.slice(2);
const { nativeFileReader } = await import(importUrl);
const fd = openSync(file, 'r');
const size = fstatSync(fd).size;
const reader = mode === 'fork' ? nativeFileReader(size) : { bytes: new Uint8Array(size), onRead() {} };
for (let offset = 0; offset < size; ) {
  offset += readSync(fd, reader.bytes, offset, Math.min(16 << 20, size - offset), null);
  reader.onRead(offset);
}
closeSync(fd);
if (mode === 'fork') {
  try {
    const fork = await reader.fork({ at, sessionId: 'c0ffee00-0000-4000-8000-000000000001', now: 0 });
    process.stdout.write(JSON.stringify({ ok: fork.chunks.length > 0 }));
  } catch (error) {
    process.stdout.write(JSON.stringify({ code: error.code, message: error.message }));
  }
} else process.stdout.write(JSON.stringify({ ok: true }));
`;

/** One note per file: the fork's peak RSS against its size and against a process that only reads it. */
export async function nativeForkMemoryNotes(
  dataDir: string,
  files: readonly { path: string; at: string; label: string; size: number }[],
): Promise<string[]> {
  const wrapper = await writeMeasuredWrapper(dataDir);
  const script = join(dataDir, 'native-fork-memory.mjs');
  await writeFile(script, FORK_SCRIPT);
  const importUrl = import.meta.resolve('dsh-import');
  const nodeArgs = importUrl.endsWith('.ts') ? ['--conditions=@dsh/source', '--import', import.meta.resolve('tsx')] : [];
  const notes: string[] = [];
  for (const { path, at, label, size } of files) {
    const read = await runMeasuredProcess(wrapper, script, [importUrl, path, at, 'read'], dataDir, nodeArgs);
    const fork = await runMeasuredProcess(wrapper, script, [importUrl, path, at, 'fork'], dataDir, nodeArgs);
    const result = JSON.parse(fork.stdout) as { ok?: boolean; code?: string; message?: string };
    const ratio = (bytes: number): string => `${(bytes / size).toFixed(2)}×`;
    const outcome = result.ok === true ? 'forked' : `refused ${String(result.code)}: ${String(result.message)}`;
    notes.push(
      `${label}: peak RSS ${formatBytes(fork.peakRssBytes)} = ${ratio(fork.peakRssBytes)} the file; over a process that only reads it (${formatBytes(read.peakRssBytes)}) ${ratio(fork.peakRssBytes - read.peakRssBytes)} (SPEC §24: ≤ 4×) — ${outcome}.`,
    );
  }
  return notes;
}
