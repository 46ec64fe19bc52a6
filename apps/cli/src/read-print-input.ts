/**
 * @module read-print-input
 * Print mode's prompt: the argument, all of stdin, or both in one message — piped text first, then
 * the argument, as `cat f | claude -p "q"` reads it. Bounded: stdin and the argument together past
 * `maxBytes` (default 256 MiB, `--max-bytes N`) is `PROMPT_TOO_LARGE`, and stdin is not read further.
 */
import { CliError } from './cli-error.js';
import type { CliContext } from './cli-context.js';
import { formatBytes } from './progress-line.js';

/** How long piped stdin may stay silent, with a prompt given, before print mode runs without it. */
const SILENT_STDIN_MS = 3000;

function promptTooLarge(maxBytes: number, received: string): CliError {
  return new CliError(
    'PROMPT_TOO_LARGE',
    `The prompt (stdin and argument together) must be at most ${String(maxBytes)} bytes (${formatBytes(maxBytes)}); received ${received}. Nothing was run or stored.`,
    { hint: 'raise the bound with --max-bytes N, or pass a long system prompt with --system-prompt-file FILE' },
  );
}

/** Stops reading `stdin` for good: a pipe that keeps sending must not keep the process alive or fill its memory. */
function stopReading(stdin: NodeJS.ReadableStream): void {
  stdin.pause();
  (stdin as Partial<{ unref(): void }>).unref?.();
  (stdin as Partial<{ destroy(): void }>).destroy?.();
}

/**
 * Stdin's text, read at most up to `budget` bytes (more is `PROMPT_TOO_LARGE`, reading stopped there).
 * With `silentMs`, '' when stdin sends nothing at all (neither data nor its end) for that long: a
 * parent that leaves stdin open without writing must not hang a prompt given as an argument. Once the
 * first byte arrives, it is read to its end or the bound; a stdin that goes quiet without ending gets
 * one line on stderr saying what dsh waits for.
 */
function readStdin(context: CliContext, budget: number, maxBytes: number, silentMs: number | undefined): Promise<string> {
  const stdin = context.stdin;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    let quiet: NodeJS.Timeout | undefined;
    let noticed = false;
    const waitNotice = () => {
      clearTimeout(quiet);
      if (noticed) return;
      quiet = setTimeout(() => {
        noticed = true;
        context.stderr.write(
          `dsh: stdin is still open (${formatBytes(bytes)} read, nothing new for ${String(SILENT_STDIN_MS / 1000)} s); print mode reads it to its end or --max-bytes: close it (Ctrl-D), or redirect it from /dev/null when it is not the prompt\n`,
        );
      }, SILENT_STDIN_MS);
      (quiet as Partial<{ unref(): void }>).unref?.();
    };
    const settle = () => {
      clearTimeout(timer);
      clearTimeout(quiet);
      quiet = undefined;
      stdin.removeListener('data', onData);
      stdin.removeListener('end', onEnd);
      stdin.removeListener('error', onError);
    };
    const onData = (chunk: Buffer | string) => {
      clearTimeout(timer);
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      bytes += buffer.length;
      if (bytes > budget) {
        settle();
        stopReading(stdin);
        reject(promptTooLarge(maxBytes, `more than that (${formatBytes(bytes + maxBytes - budget)} so far, reading stopped)`));
        return;
      }
      chunks.push(buffer);
      waitNotice();
    };
    const onEnd = () => {
      settle();
      resolve(Buffer.concat(chunks).toString('utf8'));
    };
    const onError = (error: Error) => {
      settle();
      reject(error);
    };
    const timer =
      silentMs === undefined
        ? undefined
        : setTimeout(() => {
            if (chunks.length > 0) return;
            context.stderr.write(
              `dsh: stdin sent nothing for ${String(silentMs / 1000)} s; running the prompt without it (redirect stdin from /dev/null to skip the wait)\n`,
            );
            settle();
            stopReading(stdin);
            resolve('');
          }, silentMs);
    // Without a prompt argument stdin is the prompt: say so if it stays quiet (the silent timer does otherwise).
    if (silentMs === undefined) waitNotice();
    stdin.on('data', onData);
    stdin.once('end', onEnd);
    stdin.once('error', onError);
  });
}

/**
 * The prompt: the argument (after any piped stdin), else (or for "-") all of stdin — unless stdin is
 * a terminal. Over `maxBytes` in all: `PROMPT_TOO_LARGE`, before anything is stored.
 */
export async function readPrintInput(context: CliContext, positional: string | undefined, maxBytes: number): Promise<string> {
  const terminal = (context.stdin as { isTTY?: boolean }).isTTY === true;
  if (positional !== undefined && positional !== '-') {
    const argumentBytes = Buffer.byteLength(positional);
    if (argumentBytes > maxBytes) throw promptTooLarge(maxBytes, `an argument of ${String(argumentBytes)} bytes`);
    if (terminal) return positional;
    const piped = await readStdin(context, maxBytes - argumentBytes, maxBytes, SILENT_STDIN_MS);
    return piped.trim() === '' ? positional : `${piped.replace(/\n+$/, '')}\n\n${positional}`;
  }
  if (terminal) {
    throw new CliError('USAGE', 'Print mode needs a prompt: expected dsh -p "some text", or text piped to stdin; received neither.');
  }
  return readStdin(context, maxBytes, maxBytes, undefined);
}
