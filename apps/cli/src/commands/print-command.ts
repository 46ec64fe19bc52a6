/**
 * @module print-command
 * Print mode (`dsh -p`, SPEC §21): the query its options ask for, the turn, and its output formats;
 * also the `--at`-style seq check other commands share.
 */
import { resolve } from 'node:path';
import type { SessionEvent } from 'dsh-codec';
import { canonicalModelSpec, defaultModelSpec, type QueryOptions } from 'dsh-host/core';
import { resolveDataDir } from '../cli-context.js';
import type { ForkWorkspace } from '../fork-worktree-at-cut.js';
import { ClaudeStreamLines } from '../claude-stream-lines.js';
import { CliError } from '../cli-error.js';
import type { CliContext } from '../cli-context.js';
import { describeEvent } from '../describe-event.js';
import type { OptionValues } from '../parse-command-line.js';
import { printResult } from '../print-result.js';
import { maxBytesOption, readInputFile } from '../read-input-file.js';
import { readPrintInput } from '../read-print-input.js';
import { streamJsonPrompt } from '../stream-json-prompt.js';
import { permissionOptions } from '../permission-options.js';
import { refuseTakenName } from '../refuse-taken-name.js';
import { withHost } from '../with-host.js';
import { parseTools } from '../tools-option.js';
import { terminalBody, terminalLine } from '../terminal-text.js';
import { parseSeq } from '../parse-seq.js';

/** Print mode's output formats: `stream-json` is Claude Code's message lines, `events` dsh's own events. */
export const OUTPUT_FORMATS = ['text', 'json', 'stream-json', 'events'] as const;

/** Print mode's input formats: stream-json is Claude Code's user message lines on stdin. */
const INPUT_FORMATS: readonly string[] = ['text', 'stream-json'];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function parseMaxTurns(value: OptionValues[string]): number | undefined {
  if (typeof value !== 'string') return undefined;
  if (!/^\d+$/.test(value.trim()) || Number(value) < 1)
    throw new CliError('USAGE', `--max-turns expects a whole number of model requests ≥ 1, received '${value}'.`);
  return Number(value);
}

/** `--system-prompt-file FILE`'s text (bounded as every input file: `NOT_A_FILE`, `FILE_TOO_LARGE`), or undefined. */
async function readSystemPromptFile(context: CliContext, values: OptionValues, maxBytes: number): Promise<string | undefined> {
  const file = values['system-prompt-file'];
  if (typeof file !== 'string') return undefined;
  if (typeof values['system-prompt'] === 'string')
    throw new CliError('USAGE', '--system-prompt and --system-prompt-file both set the system prompt: use one of them.');
  return readInputFile(context, resolve(context.cwd, file), maxBytes);
}

/** The query the options ask for (everything but the prompt and the callbacks). */
function queryOf(context: CliContext, values: OptionValues, prompt: string): QueryOptions {
  const resume = typeof values.resume === 'string' ? values.resume : undefined;
  const continuing = values.continue === true;
  const fork = values['fork-session'] === true;
  if (resume !== undefined && continuing) throw new CliError('USAGE', '--resume and --continue both pick a session: use one of them.');
  if (fork && resume === undefined && !continuing) {
    throw new CliError('USAGE', '--fork-session needs a session to fork: add --resume ID|NAME or --continue.');
  }
  if (values['resume-at'] !== undefined && !fork) {
    throw new CliError(
      'USAGE',
      '--resume-at needs --fork-session: a continued session only grows at its end, so an earlier point is reached by forking there.',
    );
  }
  const isNew = resume === undefined && !continuing;
  const sessionId = typeof values['session-id'] === 'string' ? values['session-id'] : undefined;
  if (sessionId !== undefined && !UUID.test(sessionId))
    throw new CliError('USAGE', `--session-id expects a UUID (8-4-4-4-12 hex digits), received '${sessionId}'.`);
  if (sessionId !== undefined && !isNew && !fork) {
    throw new CliError(
      'USAGE',
      '--session-id names a new session: a resumed session keeps its id (add --fork-session to give the fork this id).',
    );
  }
  const cwd = resolve(context.cwd, typeof values.cwd === 'string' ? values.cwd : '.');
  const query: QueryOptions = { prompt };
  if (resume !== undefined) query.resume = resume;
  if (continuing) query.continue = true;
  if (fork) query.forkSession = true;
  if (sessionId !== undefined) query.sessionId = sessionId;
  if (typeof values['resume-at'] === 'string') query.resumeSessionAt = parseSeq('--resume-at', values['resume-at']);
  if (typeof values.name === 'string') query.title = values.name;
  if (typeof values.tools === 'string') query.tools = parseTools(values.tools);
  if (typeof values['system-prompt'] === 'string') query.systemPrompt = values['system-prompt'];
  if (typeof values['append-system-prompt'] === 'string') query.appendSystemPrompt = values['append-system-prompt'];
  // A new session records where it runs (so --continue finds it); a resumed one keeps its own unless told.
  if (isNew || typeof values.cwd === 'string' || continuing) query.cwd = cwd;
  // A resumed session keeps the model it recorded unless --model names another (SPEC §21).
  // Claude Code's names (`sonnet`, `claude-…`) are recorded as the spec they mean; no --model: the keys' default (SPEC §25).
  if (typeof values.model === 'string') query.model = canonicalModelSpec(values.model);
  else if (isNew) query.model = defaultModelSpec(context.env);
  // Stored in the session's config (SPEC §23): a later resume without the flag takes none either.
  if (values['no-checkpoints'] === true) query.checkpoints = false;
  return query;
}

/**
 * Print mode (`dsh -p [PROMPT]`): runs one turn and prints the answer as text, one JSON result
 * object (`json`), Claude Code's message lines then that object (`stream-json`), or each appended
 * event as a JSON line then that object (`events`).
 */
export async function printCommand(context: CliContext, values: OptionValues, positional?: string): Promise<number> {
  const format = typeof values['output-format'] === 'string' ? values['output-format'] : 'text';
  if (!(OUTPUT_FORMATS as readonly string[]).includes(format)) {
    throw new CliError('USAGE', `--output-format expects ${OUTPUT_FORMATS.join(', ')}; received '${format}'.`);
  }
  const inputFormat = typeof values['input-format'] === 'string' ? values['input-format'] : 'text';
  if (!INPUT_FORMATS.includes(inputFormat)) {
    throw new CliError('USAGE', `--input-format expects ${INPUT_FORMATS.join(' or ')}; received '${inputFormat}'.`);
  }
  if (inputFormat === 'stream-json' && positional !== undefined && positional !== '-') {
    throw new CliError('USAGE', '--input-format stream-json reads the prompt from stdin; received a PROMPT argument too.', {
      hint: 'put the prompt in a {"type":"user",…} line on stdin, or drop --input-format',
    });
  }
  const disallowed = permissionOptions(context, values);
  const maxTurns = parseMaxTurns(values['max-turns']);
  const verbose = values.verbose === true;
  const maxBytes = maxBytesOption(values['max-bytes']);
  const systemPromptFile = await readSystemPromptFile(context, values, maxBytes);
  const input = await readPrintInput(context, positional, maxBytes);
  const prompt = inputFormat === 'stream-json' ? streamJsonPrompt(input) : input;
  if (prompt.trim() === '')
    throw new CliError('USAGE', 'The prompt is empty: expected dsh -p "some text" (or text on stdin); received only whitespace.');
  const query = queryOf(context, values, prompt);
  if (systemPromptFile !== undefined) query.systemPrompt = systemPromptFile;
  if (disallowed !== undefined) query.disallowedTools = disallowed;

  // `json --verbose` is Claude Code's array of the stream-json messages, the result last.
  const messages: unknown[] | undefined = format === 'json' && verbose ? [] : undefined;
  const lines =
    format === 'stream-json'
      ? new ClaudeStreamLines((line) => context.stdout.write(line))
      : messages === undefined
        ? undefined
        : new ClaudeStreamLines((line) => messages.push(JSON.parse(line)));
  const started = { model: '', keylessNote: false };
  const keylessNote =
    'dsh: answering with the keyless offline model: neither ANTHROPIC_API_KEY nor OPENAI_API_KEY is set and no --model was given (e.g. --model sonnet)\n';
  query.onStart = (start) => {
    started.model = start.model;
    // Text output keeps its first stderr line the session's (as §21 prints it): the note follows it.
    if (start.model === 'keyless' && values.model === undefined) {
      if (format === 'text') started.keylessNote = true;
      else context.stderr.write(keylessNote);
    }
    lines?.init(start);
    if (verbose)
      context.stderr.write(
        `dsh: ${terminalLine(`session ${start.sessionId} on ${start.model}, cwd ${start.cwd ?? '(none)'}, tools ${start.tools.join(', ') || '(none)'}`)}\n`,
      );
  };
  // Every event the host appends, in order; `events` prints each as it comes, stream-json its messages.
  const appended: SessionEvent[] = [];
  const telemetry = (event: SessionEvent, where: { sessionId: string }) => {
    appended.push(event);
    if (format === 'events') context.stdout.write(`${JSON.stringify(event)}\n`);
    lines?.event(event, where.sessionId);
    if (verbose) context.stderr.write(`dsh: ${String(event.seq).padStart(4)} ${terminalLine(`${event.type} ${describeEvent(event)}`)}\n`);
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
      // Text output shows a session's text, never a terminal command it carries (JSON formats stay JSON).
      context.stdout.write(terminalBody(delta.text));
      shown.atLineStart = delta.text.endsWith('\n');
    };
  }
  const startedAt = performance.now();
  const worktree = values.worktree === true;
  if (worktree && (query.forkSession !== true || query.sessionId !== undefined))
    throw new CliError('USAGE', '--worktree needs --fork-session (and chooses the fork itself: no --session-id).');
  let forked: { parentSession: string; forkCut: number; workspace?: ForkWorkspace } | undefined;
  const queried = await withHost(
    context,
    values,
    async (host) => {
      // --name on a new session or a fork, or renaming a resumed one: a name another session has is refused.
      if (query.title !== undefined && !worktree && query.continue !== true) {
        const own = query.resume !== undefined && query.forkSession !== true ? await host.resolve(query.resume) : undefined;
        await refuseTakenName(host, query.title, own);
      }
      if (!worktree) return host.query(query);
      // The fork with the files at the cut first (as `dsh fork --worktree`), then the turn runs in it.
      const ref = query.resume ?? (await host.mostRecentForCwd(resolve(context.cwd, typeof values.cwd === 'string' ? values.cwd : '.')));
      const { forkWithOptions } = await import('../fork-with-options.js');
      const { forkWorkspaceLines } = await import('../fork-worktree-at-cut.js');
      const made = await forkWithOptions(host, resolveDataDir(context, values.data), ref, {
        worktree: true,
        ...(query.checkpoints === false ? { checkpoints: false as const } : {}),
        ...(query.resumeSessionAt === undefined ? {} : { atSeq: query.resumeSessionAt }),
        ...(query.title === undefined ? {} : { title: query.title }),
      });
      forked = {
        parentSession: made.result.parentSession,
        forkCut: made.result.forkCut,
        ...(made.workspace === undefined ? {} : { workspace: made.workspace }),
      };
      if (made.warning !== undefined) context.stderr.write(terminalBody(made.warning));
      for (const line of made.workspace === undefined ? [] : forkWorkspaceLines(made.workspace))
        context.stderr.write(`${terminalLine(line)}\n`);
      const { forkSession: _fork, resumeSessionAt: _at, continue: _continue, title: _title, cwd: _cwd, ...rest } = query;
      return host.query({ ...rest, resume: made.result.sessionId });
    },
    {
      telemetry,
      ...(maxTurns === undefined ? {} : { maxSteps: maxTurns }),
    },
  );
  const printed = printResult(queried, appended, performance.now() - startedAt, started.model);
  const result =
    forked === undefined
      ? printed
      : {
          ...printed,
          parentSession: forked.parentSession,
          forkCut: forked.forkCut,
          ...(forked.workspace === undefined ? {} : (await import('../fork-worktree-at-cut.js')).forkWorkspaceJson(forked.workspace)),
        };
  if (lines !== undefined) {
    lines.result(result);
    if (messages !== undefined) context.stdout.write(`${JSON.stringify(messages)}\n`);
  } else if (format !== 'text') {
    context.stdout.write(`${JSON.stringify(result)}\n`);
  } else {
    const answer = terminalBody(result.result);
    if (shown.step === undefined) context.stdout.write(answer.endsWith('\n') ? answer : `${answer}\n`);
    else if (!shown.atLineStart) context.stdout.write('\n');
    const lineage = result.parentSession === undefined ? '' : ` (forked from ${result.parentSession} at seq ${String(result.forkCut)})`;
    context.stderr.write(`dsh: ${terminalLine(`session ${result.sessionId}${lineage}`)}\n`);
    if (started.keylessNote) context.stderr.write(keylessNote);
    // A refused call is said aloud (SPEC §25); a turn whose every call was refused is the error below.
    for (const denial of result.permission_denials)
      context.stderr.write(`dsh: ${terminalLine(`${denial.tool_name} was refused (${denial.code}): ${denial.reason}`)}\n`);
    if (result.isError && result.stopReason === 'completed') {
      context.stderr.write(`dsh: ${terminalLine(`the turn failed (${result.errorCode ?? 'ERROR'}): no tool call it made ran`)}\n`);
    } else if (result.isError) {
      const code = result.errorCode === undefined ? '' : ` (${result.errorCode})`;
      // The provider's message in full: a 429's "Rate limit reached… try again in 20s" is what the user needs.
      const message = result.errorMessage === undefined ? '' : `: ${terminalBody(result.errorMessage)}`;
      context.stderr.write(`dsh: the turn ended ${result.stopReason}${code}${message}\n`);
    }
  }
  return result.isError ? 1 : 0;
}
