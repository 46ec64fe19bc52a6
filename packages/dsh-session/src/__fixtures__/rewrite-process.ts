/**
 * `dsh migrate FILE --write`'s rewrite in a real process that SIGKILLs itself right after one named
 * step (`rewrite-process.ts FILE STEP`; `none` runs to the end and prints `done`).
 */
import { basename } from 'node:path';
import { decodeJsonl, encodeJsonl } from 'dsh-codec';
import { rewriteLogFile, type RewriteStep } from 'dsh-session';

const [file, killAt] = process.argv.slice(2) as [string, RewriteStep | 'none'];
const sessionId = basename(file).replace(/\.jsonl$/, '');
await rewriteLogFile(
  file,
  (text) => {
    const { header, events } = decodeJsonl(text, { sessionId });
    return encodeJsonl({ header, events });
  },
  {
    onStep: (step) => {
      if (step === killAt) process.kill(process.pid, 'SIGKILL');
    },
  },
);
process.stdout.write('done\n');
