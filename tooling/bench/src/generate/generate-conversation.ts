import type { ToolEffect } from 'dsh-codec';
import { createRandom, type Random } from './create-random.js';
import { createTextSource, token, type TextSource } from './generate-text.js';

/** One tool call the model asked for and what running it returned. */
export interface ConversationCall {
  readonly id: string;
  readonly name: string;
  /** The raw JSON string the model produced. */
  readonly arguments: string;
  readonly effect: ToolEffect;
  readonly output: string;
  readonly isError: boolean;
}

/** One model call and the tools it asked for. */
export interface ConversationStep {
  readonly text: string;
  readonly calls: readonly ConversationCall[];
  readonly usage: { readonly inputTokens: number; readonly outputTokens: number };
}

/** One user message and the steps that answered it. */
export interface ConversationTurn {
  readonly userText: string;
  readonly steps: readonly ConversationStep[];
}

/** A format-neutral coding-agent conversation, from which every log format in the bench is written. */
export interface Conversation {
  readonly cwd: string;
  readonly model: string;
  readonly title: string;
  readonly startTime: number;
  readonly turns: readonly ConversationTurn[];
}

/** How many log records a format spends on a turn: `overhead` per turn plus 3 per step and 2 per call. */
export interface ConversationOptions {
  readonly seed: number;
  /** Records to spend on turns, exactly. */
  readonly budget: number;
  /** Records per turn outside its steps (e.g. turn/start, user/message, turn/end). */
  readonly turnOverhead: number;
}

type Source = { random: Random; text: TextSource };

const TOOLS: readonly { name: string; effect: ToolEffect; args: (source: Source) => string }[] = [
  { name: 'read_file', effect: 'read-only', args: ({ random }) => JSON.stringify({ path: filePath(random) }) },
  { name: 'grep', effect: 'read-only', args: ({ random }) => JSON.stringify({ pattern: token(random, 8), path: 'src' }) },
  { name: 'list_dir', effect: 'read-only', args: ({ random }) => JSON.stringify({ path: `src/${token(random, 5)}` }) },
  {
    name: 'edit_file',
    effect: 'side-effect',
    args: ({ random, text }) => JSON.stringify({ path: filePath(random), old: text.code(80), new: text.code(90) }),
  },
  { name: 'run_tests', effect: 'idempotent', args: ({ random }) => JSON.stringify({ filter: token(random, 6) }) },
  { name: 'bash', effect: 'unknown', args: ({ random }) => JSON.stringify({ command: `pnpm vitest run ${token(random, 6)}` }) },
];

/** The smallest budget `generateConversation` accepts: room for one turn and a tail. */
export const MIN_BUDGET = 20;

/**
 * Generates turns whose record count is exactly `budget` under the given per-turn overhead,
 * deterministic for a seed. Turns have 1–6 steps; non-final steps ask for 1–3 tools.
 */
export function generateConversation(options: ConversationOptions): Conversation {
  const { seed, budget, turnOverhead } = options;
  if (!Number.isInteger(budget) || budget < MIN_BUDGET) {
    throw new RangeError(`generateConversation: expected an integer budget ≥ ${MIN_BUDGET}, received ${budget}`);
  }
  const random = createRandom(seed);
  const source: Source = { random, text: createTextSource(random) };
  const turns: ConversationTurn[] = [];
  let remaining = budget;
  while (remaining > 0) {
    const callCounts = randomStepShape(random);
    const size = turnOverhead + callCounts.reduce((sum, calls) => sum + 3 + 2 * calls, 0);
    // Keep a tail of at least 15 records, which `exactStepShape` can always fill exactly.
    if (size === remaining || size <= remaining - 15) {
      turns.push(randomTurn(source, callCounts));
      remaining -= size;
    } else {
      turns.push(randomTurn(source, exactStepShape(remaining - turnOverhead)));
      remaining = 0;
    }
  }
  return {
    cwd: '/home/dev/projects/dsh-demo',
    model: 'bench-model-1',
    title: source.text.prose(40),
    startTime: 1_764_000_000_000,
    turns,
  };
}

function randomStepShape(random: Random): number[] {
  const steps = 1 + random.weighted([30, 25, 18, 12, 8, 7]);
  const shape: number[] = [];
  for (let step = 1; step < steps; step += 1) shape.push(1 + random.weighted([55, 30, 15]));
  shape.push(0);
  return shape;
}

/** Step call counts whose records (3 per step, 2 per call) add up to exactly `records` (≥ 3, ≠ 4). */
export function exactStepShape(records: number): number[] {
  if (!Number.isInteger(records) || records < 3 || records === 4) {
    throw new RangeError(`exactStepShape: cannot fill ${records} records with steps of 3 + 2 per call`);
  }
  const shape: number[] = [];
  let left = records;
  while (left > 14) {
    shape.push(3);
    left -= 9;
  }
  const tails: Record<number, number[]> = {
    3: [0],
    5: [1],
    6: [0, 0],
    7: [2],
    8: [1, 0],
    9: [3],
    10: [2, 0],
    11: [1, 0, 0],
    12: [3, 0],
    13: [1, 1, 0],
    14: [3, 1],
  };
  const tail = tails[left];
  if (!tail) throw new RangeError(`exactStepShape: no tail for ${left} records`);
  return [...shape, ...tail];
}

function randomTurn(source: Source, callCounts: readonly number[]): ConversationTurn {
  return {
    userText: source.text.prose(source.random.int(40, 400)),
    steps: callCounts.map((calls) => randomStep(source, calls)),
  };
}

function randomStep(source: Source, callCount: number): ConversationStep {
  const { random, text } = source;
  const calls: ConversationCall[] = [];
  for (let index = 0; index < callCount; index += 1) {
    const tool = random.pick(TOOLS);
    const isError = random.next() < 0.05;
    const outputLength = Math.round(80 + 2500 * random.next() ** 3);
    calls.push({
      id: `call_${token(random, 12)}`,
      name: tool.name,
      arguments: tool.args(source),
      effect: tool.effect,
      output: isError ? `Error: ${text.prose(60)}` : text.code(outputLength),
      isError,
    });
  }
  const textLength = callCount > 0 ? random.int(0, 300) : random.int(60, 1200);
  return {
    text: textLength === 0 ? '' : text.prose(textLength),
    calls,
    usage: { inputTokens: random.int(2_000, 60_000), outputTokens: random.int(20, 1_500) },
  };
}

function filePath(random: Random): string {
  return `src/${token(random, 6)}/${token(random, 8)}.ts`;
}
