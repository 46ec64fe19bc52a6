/**
 * @module read-print-input
 * Print mode's prompt: the argument, all of stdin, or both in one message — piped text first, then
 * the argument, as `cat f | claude -p "q"` reads it.
 */
import { CliError } from './cli-error.js';
import type { CliContext } from './cli-context.js';

/** How long piped stdin may stay silent, with a prompt given, before print mode runs without it. */
const SILENT_STDIN_MS = 3000;

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * All of stdin, or '' when it sends nothing at all (neither data nor its end) for `SILENT_STDIN_MS`:
 * a parent that leaves stdin open without writing must not hang a prompt given as an argument.
 * Once the first byte arrives, it is read to its end however long that takes.
 */
function readIfPiped(context: CliContext): Promise<string> {
  const stdin = context.stdin;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const finish = (text: string) => {
      clearTimeout(timer);
      stdin.removeListener('data', onData);
      stdin.removeListener('end', onEnd);
      stdin.removeListener('error', onError);
      resolve(text);
    };
    const onData = (chunk: Buffer | string) => {
      clearTimeout(timer);
      chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    };
    const onEnd = () => {
      finish(Buffer.concat(chunks).toString('utf8'));
    };
    const onError = (error: Error) => {
      clearTimeout(timer);
      reject(error);
    };
    const timer = setTimeout(() => {
      if (chunks.length > 0) return;
      context.stderr.write(
        `dsh: stdin sent nothing for ${String(SILENT_STDIN_MS / 1000)} s; running the prompt without it (redirect stdin from /dev/null to skip the wait)\n`,
      );
      stdin.pause();
      // An open pipe nobody writes to must not keep the process alive after the answer.
      (stdin as Partial<{ unref(): void }>).unref?.();
      finish('');
    }, SILENT_STDIN_MS);
    stdin.on('data', onData);
    stdin.once('end', onEnd);
    stdin.once('error', onError);
  });
}

/** The prompt: the argument (after any piped stdin), else (or for "-") all of stdin — unless stdin is a terminal. */
export async function readPrintInput(context: CliContext, positional: string | undefined): Promise<string> {
  const terminal = (context.stdin as { isTTY?: boolean }).isTTY === true;
  if (positional !== undefined && positional !== '-') {
    if (terminal) return positional;
    const piped = await readIfPiped(context);
    return piped.trim() === '' ? positional : `${piped.replace(/\n+$/, '')}\n\n${positional}`;
  }
  if (terminal) {
    throw new CliError('USAGE', 'Print mode needs a prompt: expected dsh -p "some text", or text piped to stdin; received neither.');
  }
  return readAll(context.stdin);
}
