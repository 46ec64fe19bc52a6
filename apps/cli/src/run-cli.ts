/**
 * @module run-cli
 * One `dsh` invocation: parse, dispatch to the command module (loaded on demand), and report a
 * failure with its code, a hint and the exit code.
 */
import { CliError } from './cli-error.js';
import type { CliContext } from './cli-context.js';
import { COMMAND_RUNNERS } from './command-runners.js';
import { dshVersion, isVersionFlag } from './dsh-version.js';
import { terminalBody } from './terminal-text.js';

// Commands are imported on demand (`COMMAND_RUNNERS`), and the host only by the commands that use it
// (and to classify a failure), so `--help`, `--version` and `dsh fork FILE` start quickly.

/** The `--data`/`--database-url` of this command line, for hints that print a command to run next. */
async function storeArgumentsOf(context: CliContext, argv: readonly string[]): Promise<string> {
  const { parseCommandLine } = await import('./parse-command-line.js');
  const { storeArguments } = await import('./store-arguments.js');
  try {
    const parsed = await parseCommandLine(argv);
    return 'values' in parsed ? storeArguments(context, parsed.values) : '';
  } catch {
    return '';
  }
}

/** What a person can do next, per error code. */
async function hintFor(
  context: CliContext,
  code: string,
  sessionId: string | undefined,
  argv: readonly string[],
): Promise<string | undefined> {
  switch (code) {
    case 'SESSION_NOT_FOUND':
      return 'list sessions with `dsh sessions`';
    case 'NAME_AMBIGUOUS':
      return 'use one of the ids above, or give one session another name with `dsh rename ID NAME`';
    case 'INVALID_CUT':
      return 'see the seqs of a session with `dsh show ID`';
    case 'SESSION_BUSY': {
      const ref = sessionId ?? 'ID';
      const prompt = argv.includes('-p') || argv.includes('--print') ? '"…"' : '"your prompt"';
      const store = await storeArgumentsOf(context, argv);
      return `fork it instead — \`dsh -p ${prompt} --resume ${ref} --fork-session${store}\` (or \`dsh fork ${ref}${store}\`) — or stop the other process first`;
    }
    case 'SESSION_EXISTS':
      return 'choose another id';
    case 'INVALID_MODEL_SPEC':
    case 'MODEL_CONFIG':
    case 'INVALID_SCRIPT':
      return '--model expects keyless, scripted:FILE (a JSON array of responses), openai:NAME with OPENAI_API_KEY set, anthropic:NAME with ANTHROPIC_API_KEY set, or sonnet, opus, haiku, claude-…; a session that recorded a model dsh cannot run continues with --resume ID --model MODEL';
    case 'UNSUPPORTED_VERSION':
      return 'upgrade dsh to read this log';
    case 'CORRUPT':
    case 'INVALID_EVENT':
    case 'INVALID_RELATIONSHIP':
    case 'INVALID_HEADER':
    case 'MALFORMED_JSON':
      return 'check the log with `dsh validate FILE`';
    default:
      return undefined;
  }
}

/** A failure as the CLI reports it: code, message, what to do next, exit code and the session it concerns. */
type Reported = { code: string; message: string; hint: string | undefined; exitCode: number; sessionId?: string };

async function classify(context: CliContext, error: unknown, argv: readonly string[]): Promise<Reported> {
  if (error instanceof CliError) return { code: error.code, message: error.message, hint: error.hint, exitCode: error.exitCode };
  const { AgentError, HostError, SessionError } = await import('dsh-host/core');
  const { CodecError } = await import('dsh-codec');
  const known = HostError.wrap(error) ?? (AgentError.is(error) || CodecError.is(error) ? error : undefined);
  if (known !== undefined) {
    const cause = HostError.is(known) ? known.cause : undefined;
    const sessionId = SessionError.is(cause) ? cause.sessionId : undefined;
    return {
      code: known.code,
      message: known.message,
      hint: await hintFor(context, known.code, sessionId, argv),
      exitCode: 1,
      ...(sessionId === undefined ? {} : { sessionId }),
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'INTERNAL', message, hint: 'this is a bug in dsh; rerun with DSH_DEBUG=1 for the stack', exitCode: 1 };
}

/** The `--output-format` of a print-mode command line, read leniently (the line may not parse). */
export function outputFormatOf(argv: readonly string[]): string | undefined {
  const first = argv[0];
  if (first === undefined || !first.startsWith('-')) return undefined;
  let format: string | undefined;
  argv.forEach((arg, index) => {
    if (arg === '--output-format') format = argv[index + 1];
    else if (arg.startsWith('--output-format=')) format = arg.slice('--output-format='.length);
  });
  return format;
}

async function report(context: CliContext, error: unknown, argv: readonly string[], startedAt: number): Promise<number> {
  const reported = await classify(context, error, argv);
  // A message may quote a session's title, a file's line or a provider's answer: shown, never obeyed.
  context.stderr.write(terminalBody(`dsh: ${reported.code}: ${reported.message}\n`));
  if (reported.hint !== undefined) context.stderr.write(terminalBody(`  hint: ${reported.hint}\n`));
  if (reported.code === 'INTERNAL' && context.env.DSH_DEBUG !== undefined && error instanceof Error && error.stack !== undefined)
    context.stderr.write(`${error.stack}\n`);
  // A script reading JSON gets a result object for every outcome, the turn never started included (SPEC §21).
  const format = outputFormatOf(argv);
  if (format === 'json' || format === 'stream-json' || format === 'events') {
    const { errorResult } = await import('./print-result.js');
    context.stdout.write(
      `${JSON.stringify(errorResult(reported.code, reported.message, performance.now() - startedAt, reported.sessionId))}\n`,
    );
  }
  return reported.exitCode;
}

/** Runs one `dsh` invocation and returns its exit code: 0 success, 1 failure, 2 usage error. */
export async function runCli(argv: readonly string[], context: CliContext): Promise<number> {
  const startedAt = performance.now();
  try {
    // The version is answered before the command table and its parser load.
    if (isVersionFlag(argv[0])) {
      context.stdout.write(`dsh ${dshVersion()}\n`);
      return 0;
    }
    const { parseCommandLine } = await import('./parse-command-line.js');
    const parsed = await parseCommandLine(argv);
    if (parsed.kind === 'help') {
      context.stdout.write(parsed.text);
      return 0;
    }
    if (parsed.kind === 'interactive') {
      if ((context.stdin as { isTTY?: boolean }).isTTY !== true) {
        if (Object.keys(parsed.values).length === 0) {
          context.stdout.write((await import('./help-text.js')).mainHelp());
          return 0;
        }
        throw new CliError('USAGE', 'Interactive mode needs a terminal, and stdin is not one; expected -p for print mode.', {
          hint: 'dsh -p --resume ID "prompt", or pipe the prompt: echo … | dsh -p --resume ID',
        });
      }
      return await (await import('./commands/interactive-command.js')).interactiveCommand(context, parsed.values);
    }
    if (parsed.kind === 'version') {
      context.stdout.write(`dsh ${dshVersion()}\n`);
      return 0;
    }
    const runner = COMMAND_RUNNERS[parsed.spec.name];
    if (runner === undefined) throw new CliError('USAGE', `Unknown command '${parsed.spec.name}'.`);
    return await runner(context, parsed.values, parsed.positionals);
  } catch (error) {
    return await report(context, error, argv, startedAt);
  }
}
