import { readFileSync } from 'node:fs';
import { CliError } from './cli-error.js';
import type { CliContext } from './cli-context.js';
import { mainHelp } from './help-text.js';
import { parseCommandLine } from './parse-command-line.js';
import { storeArguments } from './store-arguments.js';

// Commands and the host are imported on demand, so `--help` and `validate` start quickly.

/** The `--data`/`--database-url` of this command line, for hints that print a command to run next. */
function storeArgumentsOf(context: CliContext, argv: readonly string[]): string {
  try {
    const parsed = parseCommandLine(argv);
    return 'values' in parsed ? storeArguments(context, parsed.values) : '';
  } catch {
    return '';
  }
}

/** What a person can do next, per error code. */
function hintFor(context: CliContext, code: string, sessionId: string | undefined, argv: readonly string[]): string | undefined {
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
      const store = storeArgumentsOf(context, argv);
      return `fork it instead — \`dsh -p ${prompt} --resume ${ref} --fork-session${store}\` (or \`dsh fork ${ref}${store}\`) — or stop the other process first`;
    }
    case 'SESSION_EXISTS':
      return 'choose another id';
    case 'INVALID_MODEL_SPEC':
    case 'MODEL_CONFIG':
    case 'INVALID_SCRIPT':
      return '--model expects keyless, scripted:FILE (a JSON array of responses), openai:NAME with OPENAI_API_KEY set, or anthropic:NAME with ANTHROPIC_API_KEY set';
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

async function report(context: CliContext, error: unknown, argv: readonly string[]): Promise<number> {
  if (error instanceof CliError) {
    context.stderr.write(`dsh: ${error.code}: ${error.message}\n`);
    if (error.hint !== undefined) context.stderr.write(`  hint: ${error.hint}\n`);
    return error.exitCode;
  }
  const { AgentError, HostError, SessionError } = await import('dsh-host');
  const { CodecError } = await import('dsh-codec');
  const known = HostError.wrap(error) ?? (AgentError.is(error) || CodecError.is(error) ? error : undefined);
  if (known !== undefined) {
    context.stderr.write(`dsh: ${known.code}: ${known.message}\n`);
    const cause = HostError.is(known) ? known.cause : undefined;
    const hint = hintFor(context, known.code, SessionError.is(cause) ? cause.sessionId : undefined, argv);
    if (hint !== undefined) context.stderr.write(`  hint: ${hint}\n`);
    return 1;
  }
  const message = error instanceof Error ? error.message : String(error);
  context.stderr.write(`dsh: INTERNAL: ${message}\n  hint: this is a bug in dsh; rerun with DSH_DEBUG=1 for the stack\n`);
  if (context.env.DSH_DEBUG !== undefined && error instanceof Error && error.stack !== undefined) context.stderr.write(`${error.stack}\n`);
  return 1;
}

function version(): string {
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return manifest.version;
}

/** Runs one `dsh` invocation and returns its exit code: 0 success, 1 failure, 2 usage error. */
export async function runCli(argv: readonly string[], context: CliContext): Promise<number> {
  try {
    const parsed = parseCommandLine(argv);
    if (parsed.kind === 'help') {
      context.stdout.write(parsed.text);
      return 0;
    }
    if (parsed.kind === 'interactive') {
      if ((context.stdin as { isTTY?: boolean }).isTTY !== true) {
        if (Object.keys(parsed.values).length === 0) {
          context.stdout.write(mainHelp());
          return 0;
        }
        throw new CliError('USAGE', 'Interactive mode needs a terminal, and stdin is not one; expected -p for print mode.', { hint: 'dsh -p --resume ID "prompt", or pipe the prompt: echo … | dsh -p --resume ID' });
      }
      return await (await import('./commands/interactive-command.js')).interactiveCommand(context, parsed.values);
    }
    if (parsed.kind === 'version') {
      context.stdout.write(`dsh ${version()}\n`);
      return 0;
    }
    const { spec, values, positionals } = parsed;
    const [first = '', second = ''] = positionals;
    switch (spec.name) {
      case 'print':
        return await (await import('./commands/print-command.js')).printCommand(context, values, positionals[0]);
      case 'sessions':
        return await (await import('./commands/sessions-command.js')).sessionsCommand(context, values);
      case 'show':
        return await (await import('./commands/show-command.js')).showCommand(context, values, first);
      case 'rename':
        return await (await import('./commands/rename-command.js')).renameCommand(context, values, first, second);
      case 'fork':
        return await (await import('./commands/fork-command.js')).forkCommand(context, values, first);
      case 'peers':
        return await (await import('./commands/peers-command.js')).peersCommand(context, values, positionals);
      case 'import':
        return await (await import('./commands/import-command.js')).importCommand(context, values, positionals);
      case 'export':
        return await (await import('./commands/export-command.js')).exportCommand(context, values, first);
      case 'repair':
        return await (await import('./commands/repair-command.js')).repairCommand(context, values, first);
      case 'validate':
        return await (await import('./commands/validate-command.js')).validateCommand(context, first, (await import('./read-input-file.js')).maxBytesOption(values['max-bytes']));
      case 'migrate':
        return await (await import('./commands/migrate-command.js')).migrateCommand(context, first, values.write === true, (await import('./read-input-file.js')).maxBytesOption(values['max-bytes']));
      case 'serve':
        return await (await import('./commands/serve-command.js')).serveCommand(context, values);
      default:
        throw new CliError('USAGE', `Unknown command '${spec.name}'.`);
    }
  } catch (error) {
    return await report(context, error, argv);
  }
}
