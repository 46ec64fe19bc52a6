/**
 * Run as a child process (`node --jitless`, so there is no WebAssembly): reads fork requests as JSON
 * on stdin — `{ bytes: base64, options }` — and writes for each `forkNativeFile`'s child (base64) and
 * facts, or its error's code and line, as JSON on stdout, with whether WebAssembly was there — and
 * whether a `nativeFileReader` given the same bytes forked them the same (`readerAgrees`).
 */
import { Buffer } from 'node:buffer';
import { forkNativeFile, ImportError, nativeFileReader, type NativeForkOptions } from '../index.js';

type Request = { bytes: string; options: NativeForkOptions };

let input = '';
process.stdin.setEncoding('utf8');
for await (const chunk of process.stdin) input += chunk as string;
/** A fork's child and facts, or its error's code and line. */
async function outcome(fork: () => ReturnType<typeof forkNativeFile> | Promise<ReturnType<typeof forkNativeFile>>) {
  try {
    const { bytes: child, chunks: _chunks, ...facts } = await fork();
    return { child: Buffer.from(child).toString('base64'), facts };
  } catch (error) {
    if (!ImportError.is(error)) throw error;
    return { error: error.code, line: error.line };
  }
}

const results = [];
for (const { bytes, options } of JSON.parse(input) as Request[]) {
  const plain = Buffer.from(bytes, 'base64');
  const result = await outcome(() => forkNativeFile(plain, options));
  const reader = nativeFileReader(plain.length);
  reader.bytes.set(plain);
  reader.onRead(plain.length);
  const viaReader = await outcome(() => reader.fork(options));
  results.push({ ...result, readerAgrees: JSON.stringify(viaReader) === JSON.stringify(result) });
}
process.stdout.write(
  JSON.stringify({ webAssembly: typeof (globalThis as { WebAssembly?: unknown }).WebAssembly !== 'undefined', results }),
);
