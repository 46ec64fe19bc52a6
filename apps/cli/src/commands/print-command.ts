import { resolve } from 'node:path';
import type { SessionEvent } from 'dsh-codec';
import type { QueryOptions } from 'dsh-host';
import { CliError } from '../cli-error.js';
import type { CliContext } from '../cli-context.js';
import type { OptionValues } from '../parse-command-line.js';
import { printResult } from '../print-result.js';
import { cliTools, withHost } from '../with-host.js';

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** A non-negative integer option, or a `USAGE` error naming it. */
export function parseSeq(flag: string, value: string): number {
  if (!/^-?\d+$/.test(value.trim())) throw new CliError('USAGE', `${flag} expects an event seq (an integer), received '${value}'.`, { hint: 'see the seqs with `dsh show ID`' });
  return Number(value);
}

/** The `--tools a,b` list, refusing names the CLI does not offer. */
export function parseTools(value: string): string[] {
  const names = value.split(',').map((name) => name.trim()).filter((name) => name !== '');
  const known = cliTools().map((tool) => tool.name);
  const unknown = names.filter((name) => !known.includes(name));
  if (unknown.length > 0) {
    throw new CliError('USAGE', `Unknown tool ${unknown.map((name) => `'${name}'`).join(', ')}: expected names from ${known.join(', ')}.`, {
      hint: 'pass --tools "" for no tools at all',
    });
  }
  return names;
}

const FORMATS = ['text', 'json', 'stream-json'] as const;

/** The prompt: the positional argument, else (or for "-") all of stdin — unless stdin is a terminal. */
async function readPrompt(context: CliContext, positional: string | undefined): Promise<string> {
  if (positional !== undefined && positional !== '-') return positional;
  if ((context.stdin as { isTTY?: boolean }).isTTY === true) {
    throw new CliError('USAGE', 'Print mode needs a prompt: expected dsh -p "some text", or text piped to stdin; received neither.');
  }
  return readAll(context.stdin);
}

/**
 * Print mode (`dsh -p [PROMPT]`): runs one turn and prints the answer as text, one JSON result
 * object (`json`), or each appended event as a JSON line followed by that object (`stream-json`).
 */
export async function printCommand(context: CliContext, values: OptionValues, positional?: string): Promise<number> {
  const format = typeof values['output-format'] === 'string' ? values['output-format'] : 'text';
  if (!(FORMATS as readonly string[]).includes(format)) {
    throw new CliError('USAGE', `--output-format expects ${FORMATS.join(', ')}; received '${format}'.`);
  }
  const prompt = await readPrompt(context, positional);
  if (prompt.trim() === '') throw new CliError('USAGE', 'The prompt is empty: expected dsh -p "some text" (or text on stdin); received only whitespace.');
  const resume = typeof values.resume === 'string' ? values.resume : undefined;
  const continuing = values.continue === true;
  const fork = values['fork-session'] === true;
  if (resume !== undefined && continuing) throw new CliError('USAGE', '--resume and --continue both pick a session: use one of them.');
  if (fork && resume === undefined && !continuing) {
    throw new CliError('USAGE', '--fork-session needs a session to fork: add --resume ID|NAME or --continue.');
  }
  if (values['resume-at'] !== undefined && !fork) {
    throw new CliError('USAGE', '--resume-at needs --fork-session: a continued session only grows at its end, so an earlier point is reached by forking there.');
  }
  const isNew = resume === undefined && !continuing;
  const cwd = resolve(context.cwd, typeof values.cwd === 'string' ? values.cwd : '.');
  const query: QueryOptions = { prompt };
  if (resume !== undefined) query.resume = resume;
  if (continuing) query.continue = true;
  if (fork) query.forkSession = true;
  if (typeof values['resume-at'] === 'string') query.resumeSessionAt = parseSeq('--resume-at', values['resume-at']);
  if (typeof values.name === 'string') query.title = values.name;
  if (typeof values.tools === 'string') query.tools = parseTools(values.tools);
  // A new session records where it runs (so --continue finds it); a resumed one keeps its own unless told.
  if (isNew || typeof values.cwd === 'string' || continuing) query.cwd = cwd;
  if (typeof values.model === 'string' || isNew) query.model = typeof values.model === 'string' ? values.model : 'keyless';

  // Every event the host appends, in order; stream-json prints each as it comes.
  const appended: SessionEvent[] = [];
  const telemetry = (event: SessionEvent) => {
    appended.push(event);
    if (format === 'stream-json') context.stdout.write(`${JSON.stringify(event)}\n`);
  };
  // On a terminal, text output shows each step's answer as it streams; piped output stays the final answer only.
  const live = format === 'text' && (context.stdout as { isTTY?: boolean }).isTTY === true;
  // An object, not two lets: TypeScript does not see the callback assign them and narrows them away.
  const shown: { step: string | undefined; atLineStart: boolean } = { step: undefined, atLineStart: true };
  if (live) {
    query.onDelta = (delta) => {
      if (delta.text === undefined) return;
      const step = `${delta.turn}:${delta.step}`;
      if (shown.step !== undefined && shown.step !== step && !shown.atLineStart) context.stdout.write('\n');
      shown.step = step;
      context.stdout.write(delta.text);
      shown.atLineStart = delta.text.endsWith('\n');
    };
  }
  const started = performance.now();
  const queried = await withHost(context, values, (host) => host.query(query), { telemetry });
  const result = printResult(queried, appended, performance.now() - started);
  if (format !== 'text') {
    context.stdout.write(`${JSON.stringify(result)}\n`);
  } else {
    if (shown.step === undefined) context.stdout.write(result.result.endsWith('\n') ? result.result : `${result.result}\n`);
    else if (!shown.atLineStart) context.stdout.write('\n');
    const lineage = result.parentSession === undefined ? '' : ` (forked from ${result.parentSession} at seq ${String(result.forkCut)})`;
    context.stderr.write(`dsh: session ${result.sessionId}${lineage}\n`);
    if (result.isError) {
      const code = result.errorCode === undefined ? '' : ` (${result.errorCode})`;
      // The provider's message in full: a 429's "Rate limit reached… try again in 20s" is what the user needs.
      const message = result.errorMessage === undefined ? '' : `: ${result.errorMessage}`;
      context.stderr.write(`dsh: the turn ended ${result.stopReason}${code}${message}\n`);
    }
  }
  return result.isError ? 1 : 0;
}
