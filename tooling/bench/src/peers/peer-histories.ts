/**
 * The same conversation in each peer's own session format, written from the V4 log so every peer
 * forks the same history. Each builder also maps a dsh seq to the peer's last record at or before it.
 */
import type { CoreEvent, SessionEvent } from 'dsh-codec';
import { createRandom, type Random } from '../generate/create-random.js';

/** A v4-format UUID from `random`, for peers that require UUID ids. */
export function uuidFrom(random: Random): string {
  const hex = (count: number): string => Array.from({ length: count }, () => random.int(0, 15).toString(16)).join('');
  return `${hex(8)}-${hex(4)}-4${hex(3)}-${(8 + random.int(0, 3)).toString(16)}${hex(3)}-${hex(12)}`;
}

/** A peer's file: its JSONL text and the id of its last record at or before each dsh seq. */
export interface PeerHistory {
  readonly text: string;
  readonly records: number;
  /** The peer's id for the last record at or before `seq` (`undefined` before its first record). */
  idAtSeq(seq: number): string | undefined;
}

function core(event: SessionEvent): CoreEvent {
  return event as CoreEvent;
}

function iso(time: number): string {
  return new Date(time).toISOString();
}

function textOf(content: readonly { type: string; text?: string }[]): string {
  return content
    .filter((block) => block.type === 'text')
    .map((block) => block.text ?? '')
    .join('\n');
}

/**
 * A Claude Code transcript (`~/.claude/projects/<cwd>/<session>.jsonl`): one line per user message,
 * per assistant content block (text, `tool_use`) and per tool result, chained by `parentUuid`.
 */
export function claudeTranscript(events: readonly SessionEvent[], sessionId: string, cwd: string, seed = 7): PeerHistory {
  const random = createRandom(seed);
  const lines: string[] = [];
  const lastIdAt: (string | undefined)[] = [];
  let parentUuid: string | null = null;
  let last: string | undefined;
  const push = (entry: Record<string, unknown>, time: number): void => {
    const uuid = uuidFrom(random);
    lines.push(
      JSON.stringify({
        parentUuid,
        isSidechain: false,
        userType: 'external',
        cwd,
        sessionId,
        version: '2.0.0',
        gitBranch: 'main',
        ...entry,
        uuid,
        timestamp: iso(time),
      }),
    );
    parentUuid = uuid;
    last = uuid;
  };
  for (const raw of events) {
    const event = core(raw);
    switch (event.type) {
      case 'user/message':
        push({ type: 'user', message: { role: 'user', content: textOf(event.data.message.content) } }, event.time);
        break;
      case 'assistant/message': {
        const messageId = `msg_${event.data.message.id}`;
        const requestId = `req_${String(event.seq)}`;
        for (const block of event.data.message.content) {
          // Generated histories hold no reasoning; a peer would need its own thinking format for it.
          if (block.type === 'reasoning') continue;
          const content =
            block.type === 'text'
              ? { type: 'text', text: block.text }
              : { type: 'tool_use', id: block.id, name: block.name, input: JSON.parse(block.arguments) as unknown };
          push(
            {
              type: 'assistant',
              requestId,
              message: {
                id: messageId,
                type: 'message',
                role: 'assistant',
                model: 'claude-bench',
                content: [content],
                stop_reason: null,
                stop_sequence: null,
                usage: { input_tokens: 3, output_tokens: 10, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
              },
            },
            event.time,
          );
        }
        break;
      }
      case 'tool/result': {
        const { message } = event.data;
        push(
          {
            type: 'user',
            message: {
              role: 'user',
              content: [{ tool_use_id: message.callId, type: 'tool_result', content: textOf(message.content), is_error: message.isError }],
            },
            toolUseResult: { stdout: textOf(message.content), stderr: '', interrupted: false },
          },
          event.time,
        );
        break;
      }
      default:
        break;
    }
    lastIdAt[event.seq] = last;
  }
  return { text: `${lines.join('\n')}\n`, records: lines.length, idAtSeq: (seq) => lastIdAt[seq] };
}

/**
 * A pi coding agent session file (format version 3): a `session` header, then `message` entries
 * (user, assistant with `toolCall` blocks, `toolResult`) in a parent-linked tree, a model change and
 * the session name.
 */
export function piSession(events: readonly SessionEvent[], sessionId: string, cwd: string, seed = 8): PeerHistory {
  const random = createRandom(seed);
  const lines: string[] = [JSON.stringify({ type: 'session', version: 3, id: sessionId, timestamp: iso(events[0]?.time ?? 0), cwd })];
  const lastIdAt: (string | undefined)[] = [];
  let parentId: string | null = null;
  let last: string | undefined;
  const used = new Set<string>();
  const push = (entry: Record<string, unknown>, time: number): void => {
    let id: string;
    do id = Array.from({ length: 8 }, () => random.int(0, 15).toString(16)).join('');
    while (used.has(id));
    used.add(id);
    lines.push(JSON.stringify({ ...entry, id, parentId, timestamp: iso(time) }));
    parentId = id;
    last = id;
  };
  const usage = (input: number, output: number): Record<string, unknown> => ({
    input,
    output,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: input + output,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  });
  const toolNames = new Map<string, string>();
  for (const raw of events) {
    const event = core(raw);
    switch (event.type) {
      case 'session/config':
        push({ type: 'model_change', provider: 'anthropic', modelId: event.data.model ?? 'bench' }, event.time);
        break;
      case 'session/title':
        push({ type: 'session_info', name: event.data.title }, event.time);
        break;
      case 'user/message':
        push(
          {
            type: 'message',
            message: { role: 'user', content: [{ type: 'text', text: textOf(event.data.message.content) }], timestamp: event.time },
          },
          event.time,
        );
        break;
      case 'assistant/message': {
        const content = event.data.message.content.flatMap((block): { type: string; [key: string]: unknown }[] => {
          if (block.type === 'reasoning') return [];
          if (block.type === 'text') return [{ type: 'text', text: block.text }];
          toolNames.set(block.id, block.name);
          return [{ type: 'toolCall', id: block.id, name: block.name, arguments: JSON.parse(block.arguments) as unknown }];
        });
        const calls = content.some((block) => block.type === 'toolCall');
        const tokens = event.data.usage as { inputTokens?: number; outputTokens?: number } | undefined;
        push(
          {
            type: 'message',
            message: {
              role: 'assistant',
              content,
              api: 'anthropic-messages',
              provider: 'anthropic',
              model: 'claude-bench',
              usage: usage(tokens?.inputTokens ?? 0, tokens?.outputTokens ?? 0),
              stopReason: calls ? 'toolUse' : 'stop',
              timestamp: event.time,
            },
          },
          event.time,
        );
        break;
      }
      case 'tool/result': {
        const { message } = event.data;
        push(
          {
            type: 'message',
            message: {
              role: 'toolResult',
              toolCallId: message.callId,
              toolName: toolNames.get(message.callId) ?? 'unknown',
              content: [{ type: 'text', text: textOf(message.content) }],
              isError: message.isError,
              timestamp: event.time,
            },
          },
          event.time,
        );
        break;
      }
      default:
        break;
    }
    lastIdAt[event.seq] = last;
  }
  return { text: `${lines.join('\n')}\n`, records: lines.length - 1, idAtSeq: (seq) => lastIdAt[seq] };
}

/** A message of the LangGraph history, independent of LangChain's classes. */
export type GraphMessage =
  | { kind: 'human'; id: string; text: string }
  | { kind: 'ai'; id: string; text: string; toolCalls: { id: string; name: string; args: Record<string, unknown> }[] }
  | { kind: 'tool'; id: string; callId: string; text: string; isError: boolean };

/** One agent step of the turn LangGraph runs for real: the AI message, then the tool messages. */
export interface GraphStep {
  readonly ai: GraphMessage & { kind: 'ai' };
  readonly tools: readonly (GraphMessage & { kind: 'tool' })[];
}

/**
 * The LangGraph parent, split around the dsh cut: the messages of every turn before the cut's turn
 * (written as one checkpoint), the cut's turn (run through the graph, one checkpoint per super-step),
 * and the rest (one checkpoint). `cutStep` is the index of the step whose AI message is the cut.
 */
export interface GraphPlan {
  readonly before: readonly GraphMessage[];
  readonly turn: { readonly human: GraphMessage & { kind: 'human' }; readonly steps: readonly GraphStep[] };
  readonly cutStep: number;
  readonly after: readonly GraphMessage[];
  readonly messages: number;
}

/** Splits the V4 log into a `GraphPlan` around `cut` (which must fall inside a step of a turn). */
export function langGraphPlan(events: readonly SessionEvent[], cut: number): GraphPlan {
  const before: GraphMessage[] = [];
  const after: GraphMessage[] = [];
  const steps: { ai: GraphMessage & { kind: 'ai' }; tools: (GraphMessage & { kind: 'tool' })[] }[] = [];
  let human: (GraphMessage & { kind: 'human' }) | undefined;
  let cutTurn = -1;
  let cutStep = -1;
  let turn = 0;
  let messages = 0;
  // First pass: the turn the cut falls in.
  for (const raw of events) {
    const event = core(raw);
    if (event.type === 'turn/start') turn = event.data.turn;
    if (event.seq === cut) cutTurn = turn;
  }
  if (cutTurn <= 0) throw new RangeError(`langGraphPlan: seq ${cut} is not inside a turn`);
  turn = 0;
  for (const raw of events) {
    const event = core(raw);
    if (event.type === 'turn/start') turn = event.data.turn;
    const message = graphMessageOf(event);
    if (!message) continue;
    messages += 1;
    if (turn !== cutTurn) {
      (event.seq < cut ? before : after).push(message);
    } else if (message.kind === 'human') {
      human = message;
    } else if (message.kind === 'ai') {
      steps.push({ ai: message, tools: [] });
      if (event.seq < cut) cutStep = steps.length - 1;
    } else {
      steps.at(-1)?.tools.push(message);
    }
  }
  if (!human || cutStep < 0) throw new RangeError(`langGraphPlan: no user message or step before seq ${cut}`);
  return { before, turn: { human, steps }, cutStep, after, messages };
}

function graphMessageOf(event: CoreEvent): GraphMessage | undefined {
  switch (event.type) {
    case 'user/message':
      return { kind: 'human', id: event.data.message.id, text: textOf(event.data.message.content) };
    case 'assistant/message':
      return {
        kind: 'ai',
        id: event.data.message.id,
        text: textOf(event.data.message.content),
        toolCalls: event.data.message.content.flatMap((block) =>
          block.type === 'tool-call'
            ? [{ id: block.id, name: block.name, args: JSON.parse(block.arguments) as Record<string, unknown> }]
            : [],
        ),
      };
    case 'tool/result':
      return {
        kind: 'tool',
        id: event.data.message.id,
        callId: event.data.message.callId,
        text: textOf(event.data.message.content),
        isError: event.data.message.isError,
      };
    default:
      return undefined;
  }
}
