/**
 * @module models/keyless-model
 * The keyless model (`createKeylessModel`): deterministic answers from a small rule set
 * (docs/agent.md) that call the demo tools over several steps, so a demo needs no key.
 */
import type { ContentBlock } from 'dsh-codec';
import { COMPACTION_INSTRUCTION } from '../compaction/compaction-prompt.js';
import type { Model, ModelMessage, ModelRequest, ModelResponse } from '../model.js';
import { streamPieces } from './stream-pieces.js';
import { throwIfAborted } from './throw-if-aborted.js';

/**
 * A deterministic offline model: the same request always gets the same response. It answers
 * from the small rule set documented in docs/agent.md, calling the demo tools (`list_files`,
 * `read_file`, `write_file`, `make_dir`) over several steps when asked to, so forks mid-turn can be shown
 * without any key. It only calls tools the request offers, and streams its text in a few deltas.
 */
export function createKeylessModel(): Model {
  return {
    name: 'keyless',
    complete(request: ModelRequest): Promise<ModelResponse> {
      throwIfAborted(request.signal);
      const action = decide(request);
      const response: ModelResponse = {
        text: action.text ?? '',
        toolCalls: (action.calls ?? []).map((call) => ({ name: call.name, arguments: JSON.stringify(call.args) })),
      };
      // Streamed in a few deltas, like a real provider, so live views can be shown without a key.
      for (const piece of streamPieces(response.text)) request.onDelta?.({ text: piece });
      return Promise.resolve(response);
    },
  };
}

type Call = { name: string; args: Record<string, string> };
type Action = { text?: string; calls?: Call[] };
type Result = { text: string; isError: boolean; id: string };
/** One step of the current turn as the history shows it: the calls made and their results. */
type Step = { calls: { id: string; name: string; args: Record<string, unknown> }[]; results: Map<string, Result> };
type Context = { steps: Step[]; tools: ReadonlySet<string>; earlier: readonly ModelMessage[] };
type Plan = (context: Context) => Action;

const HELP =
  'I am the keyless offline model: I answer from a fixed rule set, without any key. Try ' +
  '"list files", "read PATH", "write PATH: TEXT", "mkdir DIR", "explore" (lists the directory, then reads ' +
  'up to three files, over three steps), or "continue" after a fork or a crash.';

function decide(request: ModelRequest): Action {
  const messages = request.messages;
  const lastUser = findLastIndex(messages, (message) => message.role === 'user');
  const user = messages[lastUser];
  if (user === undefined) return { text: `Hello. ${HELP}` };
  const text = textOf(user.content).trim();
  const earlier = messages.slice(0, lastUser);
  if (text.startsWith(COMPACTION_INSTRUCTION)) return { text: summarize(earlier) };
  const context: Context = {
    steps: stepsOf(messages.slice(lastUser + 1)),
    tools: new Set(request.tools.map((tool) => tool.name)),
    earlier,
  };
  return planFor(text)(context);
}

function planFor(text: string): Plan {
  const makeDir = /^(?:please\s+)?(?:mkdir(?:\s+-p)?|(?:make|create)\s+(?:a\s+|the\s+)?(?:dir|directory|folder))\s+(\S+)\s*$/i.exec(text);
  if (makeDir?.[1] !== undefined) return singleCall('make_dir', { path: cleanPath(makeDir[1]) });
  const write = /^(?:please\s+)?(?:write|save|create)\s+(?:the\s+)?(?:file\s+)?([^\s:]+)\s*:\s?([\s\S]*)$/i.exec(text);
  if (write?.[1] !== undefined) return singleCall('write_file', { path: cleanPath(write[1]), content: write[2] ?? '' });
  const read = /^(?:please\s+)?(?:read|show|cat|open|print)\s+(?:the\s+)?(?:file\s+)?(\S+)\s*$/i.exec(text);
  if (read?.[1] !== undefined) return singleCall('read_file', { path: cleanPath(read[1]) });
  const list = /^(?:please\s+)?(?:list|ls)\b(?:\s+(?:the\s+)?(?:files|directory|dir))?(?:\s+(?:in|of|under))?\s*(\S+)?\s*$/i.exec(text);
  if (list !== null) return singleCall('list_files', { path: list[1] === undefined ? '.' : cleanPath(list[1]) });
  if (/\b(?:explore|look around|overview)\b/i.test(text)) return explore;
  if (/^(?:please\s+)?(?:continue|retry|resume|go on|carry on)\b/i.test(text)) return continueAfterCut;
  if (/^(?:hi|hello|hey)\b/i.test(text)) return () => ({ text: `Hello! ${HELP}` });
  return () => ({ text: `You said: "${clip(text, 200)}". ${HELP}` });
}

/** Step 1 calls the tool; step 2 reports its result. */
function singleCall(name: string, args: Record<string, string>): Plan {
  return ({ steps, tools }) => {
    const first = steps[0];
    if (first === undefined) return tools.has(name) ? { calls: [{ name, args }] } : unavailable(name, tools);
    const result = onlyResult(first);
    if (result === undefined) return { text: `The ${name} call returned no result.` };
    if (result.isError) return { text: `The ${name} call failed: ${result.text}` };
    if (name === 'list_files') return { text: `Entries of ${args.path ?? '.'}:\n${result.text}` };
    if (name === 'read_file') return { text: `Contents of ${args.path ?? ''}:\n${result.text}` };
    return { text: `Done: ${result.text}` };
  };
}

/** Step 1 lists the cwd; step 2 reads up to three files at once; step 3 summarizes them. */
const explore: Plan = ({ steps, tools }) => {
  const [listing, reading] = steps;
  if (listing === undefined) {
    return tools.has('list_files') ? { calls: [{ name: 'list_files', args: { path: '.' } }] } : unavailable('list_files', tools);
  }
  const listed = onlyResult(listing);
  if (listed === undefined || listed.isError) return { text: `I could not list the directory: ${listed?.text ?? 'no result'}` };
  const files = listed.text.split('\n').filter((line) => line !== '' && !line.endsWith('/') && !line.startsWith('…'));
  const chosen = listed.text.endsWith(' is empty.') ? [] : files.slice(0, 3);
  if (reading === undefined) {
    if (chosen.length === 0) return { text: 'The working directory has no files to read.' };
    if (!tools.has('read_file')) return { text: `The working directory holds:\n${listed.text}` };
    return { calls: chosen.map((path) => ({ name: 'read_file', args: { path } })) };
  }
  const lines = reading.calls.map((call) => {
    const result = reading.results.get(call.id);
    const path = typeof call.args.path === 'string' ? call.args.path : '?';
    if (result === undefined) return `- ${path}: no result was recorded`;
    if (result.isError) return `- ${path}: ${clip(result.text, 160)}`;
    const first = result.text.split('\n')[0] ?? '';
    return `- ${path}: ${result.text.split('\n').length} line(s), starting "${clip(first, 80)}"`;
  });
  return { text: `I explored the working directory (${files.length} file(s)) and read ${reading.calls.length}:\n${lines.join('\n')}` };
};

const SYNTHETIC_RESULT_ID = /^(?:forked|interrupted|cancelled)-tool-result-/;

/** Demo tools safe to simply run again: read-only (`read_file`, `list_files`) or idempotent (`make_dir`). */
const REPEATABLE_TOOLS: ReadonlySet<string> = new Set(['read_file', 'list_files', 'make_dir']);

/**
 * After a fork, a crash or a cancellation: re-issues, as new calls, the previous turn's read-only and
 * idempotent calls that were closed without a real result; a write is first verified by reading the
 * file, and written again only when its content is not there. Any other tool is never repeated.
 */
const continueAfterCut: Plan = ({ steps, tools, earlier }) => {
  // A stored note (SPEC §23, a user message `note-<seq>` after the closers) belongs to the turn it follows.
  const previousUser = findLastIndex(earlier, (message) => message.role === 'user' && !message.id.startsWith('note-'));
  const previousTurn = earlier.slice(previousUser + 1);
  const calls = new Map<string, Call>();
  for (const message of previousTurn) {
    if (message.role !== 'assistant') continue;
    for (const block of message.content) {
      if (block.type === 'tool-call') calls.set(block.id, { name: block.name, args: parseArgs(block.arguments) });
    }
  }
  const targets: Call[] = [];
  for (const message of previousTurn) {
    if (message.role !== 'tool' || !message.isError || !SYNTHETIC_RESULT_ID.test(message.id)) continue;
    const call = calls.get(message.callId);
    if (call !== undefined) targets.push(call);
  }
  if (targets.length === 0) return { text: 'There is nothing to continue: the previous turn left no unfinished tool calls.' };
  const writes = targets.filter((call) => call.name === 'write_file');
  const reruns = targets.filter((call) => REPEATABLE_TOOLS.has(call.name) && tools.has(call.name));
  // Offered, but not known to this model to be safe to repeat: running it again might repeat a side effect.
  const unsafe = new Set(
    targets
      .filter((call) => call.name !== 'write_file' && !REPEATABLE_TOOLS.has(call.name) && tools.has(call.name))
      .map((call) => call.name),
  );
  const notRepeated =
    unsafe.size === 0 ? '' : ` I did not repeat ${[...unsafe].join(', ')}: I cannot tell whether running it again is safe.`;
  const [first, second] = steps;
  if (first === undefined) {
    const checks = writes.map((call) => ({ name: 'read_file', args: { path: call.args.path ?? '' } }));
    const all = [...reruns, ...(tools.has('read_file') ? checks : [])];
    if (all.length === 0) return unsafe.size > 0 ? { text: notRepeated.trim() } : unavailable(targets[0]?.name ?? 'read_file', tools);
    return { calls: all };
  }
  const verified = first.calls.slice(reruns.length);
  const missing = writes.filter((call, index) => {
    const check = verified[index];
    const result = check === undefined ? undefined : first.results.get(check.id);
    return result === undefined || result.isError || result.text !== call.args.content;
  });
  if (writes.length > 0 && !tools.has('read_file')) {
    return {
      text: `I re-ran ${reruns.length} call(s); ${writes.length} write(s) cannot be verified without read_file, so I did not repeat them.${notRepeated}`,
    };
  }
  if (second === undefined && missing.length > 0 && tools.has('write_file')) return { calls: missing };
  const parts = [`I re-ran ${reruns.length} call(s) left without a result.`];
  if (writes.length > 0) {
    // A rewrite the tool refused (NO_WORKSPACE, PATH_REFUSED, …) is said to be refused, never "written" (SPEC §25).
    const refused =
      second === undefined
        ? []
        : second.calls.flatMap((call) => {
            const result = second.results.get(call.id);
            return result === undefined || result.isError ? [result?.text ?? 'no result'] : [];
          });
    const written = second === undefined ? 0 : second.calls.length - refused.length;
    parts.push(
      `${writes.length - missing.length} write(s) had already taken effect; ` +
        `${written} had not and were written now.` +
        (refused.length === 0 ? '' : ` ${refused.length} could not be written, refused: ${clip(refused[0] ?? '', 160)}`),
    );
  }
  return { text: parts.join(' ') + notRepeated };
};

function unavailable(name: string, tools: ReadonlySet<string>): Action {
  const offered = tools.size === 0 ? 'none' : [...tools].sort().join(', ');
  return { text: `I would call ${name}, but it is not available in this session (tools: ${offered}).` };
}

function stepsOf(turn: readonly ModelMessage[]): Step[] {
  const steps: Step[] = [];
  for (const message of turn) {
    if (message.role === 'assistant') {
      const calls = message.content.flatMap((block) =>
        block.type === 'tool-call' ? [{ id: block.id, name: block.name, args: parseArgs(block.arguments) }] : [],
      );
      steps.push({ calls, results: new Map() });
    } else if (message.role === 'tool') {
      steps.at(-1)?.results.set(message.callId, { text: textOf(message.content), isError: message.isError, id: message.id });
    }
  }
  return steps;
}

function onlyResult(step: Step): Result | undefined {
  const call = step.calls[0];
  return call === undefined ? undefined : step.results.get(call.id);
}

/** An extractive summary: one clipped line per user and assistant text, oldest first. */
function summarize(messages: readonly ModelMessage[]): string {
  const lines: string[] = [];
  let results = 0;
  for (const message of messages) {
    if (message.role === 'tool') {
      results += 1;
      continue;
    }
    const text = textOf(message.content).replace(/\s+/g, ' ').trim();
    if (text !== '') lines.push(`- ${message.role}: ${clip(text, 160)}`);
  }
  if (lines.length === 0) lines.push('- (no text messages)');
  return `${lines.join('\n')}\n(${messages.length} message(s), ${results} tool result(s) summarized)`;
}

function parseArgs(raw: string): Record<string, string> {
  try {
    const value = JSON.parse(raw) as unknown;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
    const args: Record<string, string> = {};
    for (const [key, entry] of Object.entries(value)) if (typeof entry === 'string') args[key] = entry;
    return args;
  } catch {
    return {};
  }
}

function cleanPath(raw: string): string {
  const unquoted = raw.replace(/^["'`]+|["'`]+$/g, '');
  const trimmed = unquoted.replace(/[,;!?]+$/, '').replace(/(?<=[^.])\.$/, '');
  return trimmed === '' ? '.' : trimmed;
}

function textOf(content: readonly ContentBlock[]): string {
  return content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function findLastIndex<T>(items: readonly T[], test: (item: T) => boolean): number {
  for (let index = items.length - 1; index >= 0; index -= 1) {
    const item = items[index];
    if (item !== undefined && test(item)) return index;
  }
  return -1;
}
