/**
 * Run as a child process (`node --jitless`, so there is no WebAssembly): reads fork requests as JSON
 * on stdin — `{ bytes: base64, options }` — and writes for each `forkNativeFile`'s child (base64) and
 * facts, or its error's code and line, as JSON on stdout, with whether WebAssembly was there.
 */
import { Buffer } from 'node:buffer';
import { forkNativeFile, ImportError, type NativeForkOptions } from '../index.js';

type Request = { bytes: string; options: NativeForkOptions };

let input = '';
process.stdin.setEncoding('utf8');
for await (const chunk of process.stdin) input += chunk as string;
const results = (JSON.parse(input) as Request[]).map(({ bytes, options }) => {
  try {
    const { bytes: child, chunks: _chunks, ...facts } = forkNativeFile(Buffer.from(bytes, 'base64'), options);
    return { child: Buffer.from(child).toString('base64'), facts };
  } catch (error) {
    if (!ImportError.is(error)) throw error;
    return { error: error.code, line: error.line };
  }
});
process.stdout.write(
  JSON.stringify({ webAssembly: typeof (globalThis as { WebAssembly?: unknown }).WebAssembly !== 'undefined', results }),
);
