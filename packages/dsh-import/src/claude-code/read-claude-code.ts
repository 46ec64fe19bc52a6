/**
 * Claude Code session files (`~/.claude/projects/<dir>/<session>.jsonl`): a `uuid`/`parentUuid` tree of
 * user, assistant, system and progress lines, plus untreed lines (summary, titles, snapshots, queue
 * operations). One API response is split over several assistant lines sharing `message.id`.
 */
import type { ContentBlock, JsonObject } from 'dsh-codec';
import type { SourceLine } from '../read-lines.js';
import { ANTHROPIC_WIRE, argumentsText, asRecord, asString, reasoning, text, type ReadTranscript } from '../read-transcript.js';
import { timeOf, WarningTally, type SourceItem, type TurnOutcome } from '../source-item.js';
import { linesOfTree } from '../transcript-tree.js';
import { CLAUDE_CODE_QUIET_TYPES, CLAUDE_CODE_TITLE_TYPES } from './claude-code-line-types.js';
import { claudeCodeTree, type ClaudeCodeEntry } from './claude-code-tree.js';
import { claudeCodeEffectOf } from './claude-code-effects.js';

const INTERRUPTED = '[Request interrupted by user';

type Entry = ClaudeCodeEntry;

function blocksOf(value: unknown): Record<string, unknown>[] {
  if (!Array.isArray(value)) return [];
  const items = value as unknown[];
  // Content arrays hold objects only, as Claude Code writes them: the array itself, not a copy.
  for (const item of items)
    if (asRecord(item) === undefined) return items.map(asRecord).filter((block): block is Record<string, unknown> => block !== undefined);
  return items as Record<string, unknown>[];
}

/** A non-text block as a placeholder text, counted in the warnings. */
function placeholder(block: Record<string, unknown>, line: number, tally: WarningTally): ContentBlock {
  const type = asString(block.type) ?? 'unknown';
  tally.add(`${type} blocks kept as text placeholders`, line);
  if (type === 'image') {
    const source = asRecord(block.source);
    const mediaType = asString(source?.media_type);
    return text(`[image${mediaType === undefined ? '' : `: ${mediaType}`}]`);
  }
  return text(`[${type} block]`);
}

function resultContent(value: unknown, line: number, tally: WarningTally): ContentBlock[] {
  if (typeof value === 'string') return [text(value)];
  return blocksOf(value).map((block) =>
    block.type === 'text' && typeof block.text === 'string' ? text(block.text) : placeholder(block, line, tally),
  );
}

const USAGE_FIELDS: readonly (readonly [string, string])[] = [
  ['input_tokens', 'inputTokens'],
  ['output_tokens', 'outputTokens'],
  ['cache_read_input_tokens', 'cacheReadTokens'],
  ['cache_creation_input_tokens', 'cacheWriteTokens'],
];

function usageOf(value: unknown): JsonObject | undefined {
  const usage = asRecord(value);
  if (usage === undefined) return undefined;
  let out: JsonObject | undefined;
  for (const [from, to] of USAGE_FIELDS) {
    const n = usage[from];
    if (typeof n === 'number' && Number.isFinite(n)) (out ??= {})[to] = n;
  }
  return out;
}

/** A response block in the current format. */
function responseBlock(block: Record<string, unknown>, line: number, tally: WarningTally): ContentBlock {
  if (block.type === 'text' && typeof block.text === 'string') return text(block.text);
  if (block.type === 'tool_use')
    return { type: 'tool-call', id: String(block.id), name: String(block.name), arguments: argumentsText(block.input) };
  if (block.type === 'thinking' && typeof block.thinking === 'string') {
    // The signature is what the Messages API verifies when the block comes back: kept verbatim.
    const signature = asString(block.signature);
    return reasoning(block.thinking, signature === undefined ? undefined : { wire: ANTHROPIC_WIRE, signature });
  }
  if (block.type === 'redacted_thinking' && typeof block.data === 'string')
    return reasoning('', { wire: ANTHROPIC_WIRE, redactedData: block.data });
  return placeholder(block, line, tally);
}

/** The items of one line of the tree (its entries in file order). */
function itemsOf(entries: readonly Entry[], tally: WarningTally): SourceItem[] {
  const items: SourceItem[] = [];
  // The response each message.id is being assembled into, until a user prompt intervenes.
  // (A new map only when this one holds any: an empty map is a fresh one.)
  let responses = new Map<string, Extract<SourceItem, { kind: 'response' }>>();
  let cwd: string | undefined;
  let model: string | undefined;
  let pendingCompaction = false;
  for (const { line, value } of entries) {
    const key = asString(value.uuid) ?? `L${line}`;
    const time = timeOf(value.timestamp) ?? Number.NaN;
    const lineCwd = asString(value.cwd);
    if (lineCwd !== undefined && lineCwd !== cwd) {
      cwd = lineCwd;
      items.push({ kind: 'config', key, time, config: { cwd } });
    }
    if (value.type === 'system') {
      if (value.subtype === 'compact_boundary') pendingCompaction = true;
      continue;
    }
    const message = asRecord(value.message);
    if (message === undefined) continue;
    if (value.type === 'assistant') {
      const id = asString(message.id) ?? key;
      const messageModel = asString(message.model);
      if (messageModel !== undefined && messageModel !== '<synthetic>' && messageModel !== model) {
        model = messageModel;
        items.push({ kind: 'config', key, time, config: { model } });
      }
      // The line's blocks in an array of their length (`map`; a string is one text block), joined
      // to the response's (`concat`): no array grown from empty by `push`, which reserves 17 slots.
      const content =
        typeof message.content === 'string'
          ? [text(message.content)]
          : blocksOf(message.content).map((block) => responseBlock(block, line, tally));
      let response = responses.get(id);
      if (response === undefined) {
        response = { kind: 'response', key, id, time, content };
        responses.set(id, response);
        items.push(response);
      } else response.content = response.content.concat(content);
      const usage = usageOf(message.usage);
      if (usage !== undefined) response.usage = usage;
      if (value.isApiErrorMessage === true) {
        const first = response.content.find((block) => block.type === 'text');
        const outcome: TurnOutcome = { kind: 'error', message: first?.type === 'text' ? first.text : 'API error' };
        response.outcome = outcome;
      }
      continue;
    }
    if (value.type !== 'user') continue;
    const id = key;
    if (value.isCompactSummary === true || pendingCompaction) {
      pendingCompaction = false;
      const summary =
        typeof message.content === 'string'
          ? message.content
          : blocksOf(message.content)
              .map((b) => asString(b.text) ?? '')
              .join('\n');
      items.push({ kind: 'compaction', key, id, time, summary });
      if (responses.size > 0) responses = new Map();
      continue;
    }
    const meta = value.isMeta === true;
    if (typeof message.content === 'string') {
      items.push({ kind: 'prompt', key, id, time, content: [text(message.content)], opensTurn: !meta });
      if (message.content.startsWith(INTERRUPTED)) items.push({ kind: 'outcome', key, time, outcome: { kind: 'cancelled' } });
      if (!meta && responses.size > 0) responses = new Map();
      continue;
    }
    const extra: ContentBlock[] = [];
    let hasResult = false;
    const blocks = blocksOf(message.content);
    for (let index = 0; index < blocks.length; index++) {
      const block = blocks[index] as Record<string, unknown>;
      if (block.type === 'tool_result') {
        hasResult = true;
        items.push({
          kind: 'result',
          key,
          id: `${id}#${index}`,
          time,
          callId: String(block.tool_use_id),
          content: resultContent(block.content, line, tally),
          isError: block.is_error === true,
        });
      } else if (block.type === 'text' && typeof block.text === 'string') extra.push(text(block.text));
      else extra.push(placeholder(block, line, tally));
    }
    if (extra.length > 0) {
      const interrupted = extra.some((block) => block.type === 'text' && block.text.startsWith(INTERRUPTED));
      items.push({ kind: 'prompt', key, id, time, content: extra, opensTurn: !meta && !hasResult && !interrupted });
      if (interrupted) items.push({ kind: 'outcome', key, time, outcome: { kind: 'cancelled' } });
      if (!meta && !hasResult && !interrupted && responses.size > 0) responses = new Map();
    }
  }
  return items;
}

/** Reads a Claude Code transcript: the main line and every branch, as item streams. */
export function readClaudeCode(lines: readonly SourceLine[]): ReadTranscript {
  const tally = new WarningTally();
  const warnings: string[] = [];
  let sessionId: string | undefined;
  let cwd: string | undefined;
  let createdAt: number | undefined;
  const titles: { title: string; rank: number }[] = [];
  // Task/Agent calls whose result names the subagent they ran (`toolUseResult.agentId`).
  const spawned: Record<string, string> = {};
  for (const { value } of lines) {
    const type = asString(value.type) ?? '';
    if (!CLAUDE_CODE_TITLE_TYPES.has(type)) continue;
    const title = asString(value.customTitle) ?? asString(value.aiTitle) ?? asString(value.summary) ?? asString(value.title);
    if (title !== undefined) titles.push({ title, rank: type === 'custom-title' ? 2 : type === 'ai-title' ? 1 : 0 });
  }
  const { entries, nodes, absorbs, allSidechain } = claudeCodeTree(lines, CLAUDE_CODE_QUIET_TYPES, tally);
  // In chain order: a line written before the one it follows does not date the session.
  for (const node of nodes) {
    const { value } = entries.get(node.key) as Entry;
    sessionId ??= asString(value.sessionId);
    cwd ??= asString(value.cwd);
    const spawnedAgent = asString(asRecord(value.toolUseResult)?.agentId);
    if (spawnedAgent !== undefined) {
      const callId = blocksOf(asRecord(value.message)?.content).find((block) => block.type === 'tool_result')?.tool_use_id;
      if (typeof callId === 'string') spawned[callId] = spawnedAgent;
    }
    createdAt ??= timeOf(value.timestamp);
  }
  const lineKeys = linesOfTree(nodes, absorbs);
  const best = titles.reduce<{ title: string; rank: number } | undefined>(
    (a, b) => (a === undefined || b.rank >= a.rank ? b : a),
    undefined,
  );
  const itemLines = lineKeys.map((keys) => {
    const items = itemsOf(
      keys.map((key) => entries.get(key) as Entry),
      tally,
    );
    // `concat`: one array of the joined length (a spread grows it item by item).
    return best === undefined
      ? items
      : [{ kind: 'title' as const, key: 'title', time: createdAt ?? 0, title: best.title } as SourceItem].concat(items);
  });
  warnings.push(...tally.messages());
  const agentId = allSidechain
    ? asString(lines.find((l) => typeof l.value.uuid === 'string' && typeof l.value.agentId === 'string')?.value.agentId)
    : undefined;
  const links = {
    ...(agentId === undefined ? {} : { agentId, ...(sessionId === undefined ? {} : { mainSourceId: sessionId }) }),
    ...(Object.keys(spawned).length === 0 ? {} : { spawned }),
  };
  return { sessionId, links, cwd, createdAt, lines: itemLines, warnings, effectOf: claudeCodeEffectOf };
}
