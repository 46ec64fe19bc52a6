/**
 * Generated Claude Code files whose lines are varied the ways a scanner of their bytes must not be
 * fooled by — escaped quotes and unicode in strings, keys in other orders or spelled with escapes,
 * nested objects holding keys named like the scanned ones, duplicate keys, whitespace, ids that are
 * not strings, lines written twice, prompts written after the line that follows them — for the property tests of the native fork's byte path and its scanners.
 */
import fc from 'fast-check';
import { claudeCodeTranscript } from '@dsh/test-utils';

/** Ways to rewrite one line that keep it a Claude Code line (or make it one the scanner declines). */
const MUTATIONS = [
  'none',
  'reorder',
  'strings',
  'nested',
  'escapedKey',
  'duplicate',
  'spaced',
  'numberId',
  'interruptedEscape',
  'blankBefore',
  'repeated',
] as const;
export type Mutation = (typeof MUTATIONS)[number];

const TRICKY = 'say "uuid":"fake" \\ back\\slash é ü 😀 \u2028 end';

function reorder(value: Record<string, unknown>, seed: number): Record<string, unknown> {
  const keys = Object.keys(value);
  // A deterministic shuffle by the seed.
  for (let i = keys.length - 1; i > 0; i--) {
    const j = (seed * 7919 + i * 104729) % (i + 1);
    [keys[i], keys[j]] = [keys[j] as string, keys[i] as string];
  }
  return Object.fromEntries(keys.map((key) => [key, value[key]]));
}

function blocksOf(value: Record<string, unknown>): Record<string, unknown>[] | undefined {
  const message = value.message as { content?: unknown } | undefined;
  return Array.isArray(message?.content) ? (message.content as Record<string, unknown>[]) : undefined;
}

/** `raw` rewritten by `mutation` (seeded), as one or more lines. */
function mutate(raw: string, mutation: Mutation, seed: number): string[] {
  let value: Record<string, unknown>;
  try {
    value = JSON.parse(raw) as Record<string, unknown>;
  } catch {
    return [raw];
  }
  switch (mutation) {
    case 'none':
      return [raw];
    case 'reorder':
      return [JSON.stringify(reorder(value, seed))];
    case 'strings': {
      const blocks = blocksOf(value);
      for (const block of blocks ?? []) {
        if (typeof block.text === 'string') block.text = `${block.text} ${TRICKY}`;
        if (block.type === 'tool_result') block.content = TRICKY;
      }
      if (typeof (value.message as { content?: unknown } | undefined)?.content === 'string')
        (value.message as { content: string }).content += TRICKY;
      return [JSON.stringify(value)];
    }
    case 'nested': {
      // Keys named like the scanned ones, nested where the scanner must skip them.
      const decoy = {
        uuid: 'decoy-uuid',
        parentUuid: 'decoy-parent',
        type: 'assistant',
        isSidechain: true,
        sessionId: value.sessionId,
        message: { id: 'decoy', content: [{ type: 'tool_use', id: 'decoy-call', name: 'Bash' }] },
      };
      const blocks = blocksOf(value);
      const call = blocks?.find((block) => block.type === 'tool_use');
      if (call !== undefined) call.input = { ...(call.input as object), decoy };
      return [JSON.stringify({ toolUseResult: decoy, ...value, extra: [decoy, [decoy], { deeper: decoy }] })];
    }
    case 'escapedKey':
      // `\u0075uid` is the key "uuid"; `\u0074ype` the key "type".
      return [raw.replace('"uuid":', '"\\u0075uid":').replace('"type":', '"\\u0074ype":')];
    case 'duplicate':
      // JSON.parse keeps the last value of a key written twice.
      return [raw.replace(/^\{/, '{"isSidechain":true,"cwd":"/first",').replace(/\}$/, ',"cwd":"/elsewhere"}')];
    case 'spaced':
      return [raw.replace(/^\{/, '{ ').replace(/\}$/, ' }')];
    case 'numberId': {
      const blocks = blocksOf(value);
      const call = blocks?.find((block) => block.type === 'tool_use' || block.type === 'tool_result');
      if (call?.type === 'tool_use') call.id = 1e3 + seed;
      else if (call !== undefined) call.tool_use_id = 1e3 + seed;
      return [JSON.stringify(value)];
    }
    case 'interruptedEscape':
      // An escaped `[` still spells Claude Code's interruption marker once decoded.
      if (value.type === 'user' && typeof (value.message as { content?: unknown } | undefined)?.content === 'string') {
        return [JSON.stringify(value).replace(/"content":"(?:[^"\\]|\\.)*"/, '"content":"\\u005bRequest interrupted by user]"')];
      }
      return [raw];
    case 'blankBefore':
      return ['   ', raw];
    case 'repeated':
      // Claude Code writes some lines twice (the same entry, uuid and all).
      return [raw, raw];
  }
}

export type FileOptions = {
  turns: number;
  branchAtTurn: number | undefined;
  compactInTurn: number | undefined;
  endMidCall: boolean;
  tornTail: boolean;
  currentLineTypes: boolean;
  outOfOrder: boolean;
  mutations: [Mutation, number][];
};

/** The shapes of generated session the property tests draw (`claudeCodeTranscript`'s options). */
export const TRANSCRIPT_SHAPE = {
  turns: fc.integer({ min: 1, max: 6 }),
  branchAtTurn: fc.option(fc.integer({ min: 2, max: 6 }), { nil: undefined }),
  compactInTurn: fc.option(fc.integer({ min: 1, max: 6 }), { nil: undefined }),
  endMidCall: fc.boolean(),
  tornTail: fc.boolean(),
  currentLineTypes: fc.boolean(),
  outOfOrder: fc.boolean(),
};

export const file: fc.Arbitrary<FileOptions> = fc.record({
  ...TRANSCRIPT_SHAPE,
  mutations: fc.array(fc.tuple(fc.constantFrom(...MUTATIONS), fc.nat({ max: 1000 })), { minLength: 1, maxLength: 40 }),
});

/** A generated file with each line rewritten by the next mutation (cycling). */
export function generated(options: FileOptions): string {
  const { mutations, ...shape } = options;
  const { text } = claudeCodeTranscript({
    ...shape,
    ...(shape.branchAtTurn === undefined || shape.branchAtTurn > shape.turns ? { branchAtTurn: undefined } : {}),
  } as Parameters<typeof claudeCodeTranscript>[0]);
  const torn = !text.endsWith('\n');
  const lines = text.split('\n');
  const last = torn ? lines.pop() : undefined;
  if (!torn) lines.pop();
  const out = lines.flatMap((line, index) => {
    const [mutation, seed] = mutations[index % mutations.length] as [Mutation, number];
    // The seed is offset by the line, so two `numberId` lines never share an id: a file whose tool
    // calls repeat one id is another property (which call a result answers), not a scanner trick.
    return mutate(line, mutation, seed + index * 1_001);
  });
  return `${out.join('\n')}\n${last ?? ''}`;
}

export function uuidsOf(text: string): string[] {
  const uuids: string[] = [];
  for (const line of text.split('\n')) {
    try {
      const value = JSON.parse(line) as { uuid?: unknown };
      if (typeof value.uuid === 'string') uuids.push(value.uuid);
    } catch {
      // a blank or torn line
    }
  }
  return uuids;
}
