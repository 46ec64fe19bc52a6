/**
 * pi session files (`~/.pi/agent/sessions/<dir>/<time>_<id>.jsonl`): a header line
 * `{type: "session", version?, id, timestamp, cwd}`, then entries. Version 1 entries have no ids and
 * form one line (compaction keeps from `firstKeptEntryIndex`, a 0-based line index); versions 2 and 3
 * link entries by `id`/`parentId` into a tree (compaction keeps from `firstKeptEntryId`).
 */
import type { ContentBlock, JsonObject } from 'dsh-codec';
import type { SourceLine } from '../read-lines.js';
import {
  ANTHROPIC_WIRE,
  argumentsText,
  asRecord,
  asString,
  OPENAI_CHAT_WIRE,
  reasoning,
  text,
  type ReadTranscript,
} from '../read-transcript.js';
import { timeOf, WarningTally, type SourceItem } from '../source-item.js';
import { linesOfTree, type TreeNode } from '../transcript-tree.js';
import { piEffectOf } from './pi-effects.js';

/** Entry types that hold nothing a dsh session needs; skipped without a warning. */
const QUIET_TYPES = new Set(['thinking_level_change', 'custom', 'label']);

/** One entry of a pi file: its source line, its key (id, or `L<line>` in version 1), its object. */
export type PiEntry = { line: number; key: string; value: Record<string, unknown> };
type Entry = PiEntry;

/**
 * A pi thinking block as reasoning. pi keeps in `thinkingSignature` what the message's `api` needs
 * back: the signature (or, with `redacted: true`, the redacted data) for `anthropic-messages`, the
 * reasoning field's name for `openai-completions`; anything else is kept under `pi` untouched.
 */
function thinkingOf(block: Record<string, unknown>, api: string | undefined): ContentBlock {
  const thinking = asString(block.thinking) ?? '';
  const signature = asString(block.thinkingSignature);
  if (signature === undefined) return reasoning(thinking);
  if (api === 'anthropic-messages') {
    return block.redacted === true
      ? reasoning('', { wire: ANTHROPIC_WIRE, redactedData: signature })
      : reasoning(thinking, { wire: ANTHROPIC_WIRE, signature });
  }
  if (api === 'openai-completions' && (signature === 'reasoning_content' || signature === 'reasoning'))
    return reasoning(thinking, { wire: OPENAI_CHAT_WIRE, field: signature });
  return reasoning(thinking, {
    pi: { ...(api === undefined ? {} : { api }), thinkingSignature: signature, ...(block.redacted === true ? { redacted: true } : {}) },
  });
}

/** Content blocks; `assistant` (with the message's `api`) only for a model response, the one place reasoning may stand. */
function blocksOf(value: unknown, line: number, tally: WarningTally, assistant?: { api: string | undefined }): ContentBlock[] {
  if (typeof value === 'string') return [text(value)];
  if (!Array.isArray(value)) return [];
  return value.flatMap((part): ContentBlock[] => {
    const block = asRecord(part);
    if (block === undefined) return [];
    if (block.type === 'text' && typeof block.text === 'string') return [text(block.text)];
    if (block.type === 'thinking' && assistant !== undefined) return [thinkingOf(block, assistant.api)];
    if (block.type === 'toolCall')
      return [{ type: 'tool-call', id: String(block.id), name: String(block.name), arguments: argumentsText(block.arguments) }];
    tally.add(`${String(block.type)} blocks kept as text placeholders`, line);
    return [
      text(
        block.type === 'image'
          ? `[image${typeof block.mimeType === 'string' ? `: ${block.mimeType}` : ''}]`
          : `[${String(block.type)} block]`,
      ),
    ];
  });
}

function usageOf(value: unknown): JsonObject | undefined {
  const usage = asRecord(value);
  if (usage === undefined) return undefined;
  const out: JsonObject = {};
  for (const [from, to] of [
    ['input', 'inputTokens'],
    ['output', 'outputTokens'],
    ['cacheRead', 'cacheReadTokens'],
    ['cacheWrite', 'cacheWriteTokens'],
  ] as const) {
    const n = usage[from];
    if (typeof n === 'number' && Number.isFinite(n)) out[to] = n;
  }
  return Object.keys(out).length === 0 ? undefined : out;
}

/**
 * The key of the first entry of `entries` at or after source line `line` that produces items: the
 * kept entry itself may be one that carries nothing (a label, a custom entry, a dropped v1 line).
 */
function firstKeptKey(entries: readonly Entry[], line: number | undefined): string | undefined {
  if (line === undefined) return undefined;
  return entries.find(
    (entry) =>
      entry.line >= line && entry.value.type !== 'custom' && entry.value.type !== 'label' && entry.value.type !== 'thinking_level_change',
  )?.key;
}

function itemsOf(entries: readonly Entry[], lineOfId: ReadonlyMap<string, number>, tally: WarningTally): SourceItem[] {
  const items: SourceItem[] = [];
  for (const entry of entries) addPiEntryItems(items, entry, entries, lineOfId, tally);
  return items;
}

/**
 * Appends the items of one entry of a line to `items` (`entries`: the line, where a compaction finds
 * the first entry it keeps; `lineOfId`: each entry's source line). Each entry's items are its own:
 * `dsh show --entries` reads every prefix of a line with it.
 */
export function addPiEntryItems(
  items: SourceItem[],
  { line, key, value }: PiEntry,
  entries: readonly PiEntry[],
  lineOfId: ReadonlyMap<string, number>,
  tally: WarningTally,
): void {
  const time = timeOf(value.timestamp) ?? Number.NaN;
  const type = asString(value.type);
  if (type === 'model_change') {
    const model = asString(value.modelId);
    if (model !== undefined) items.push({ kind: 'config', key, time, config: { model } });
    return;
  }
  if (type === 'session_info') {
    const name = asString(value.name);
    if (name !== undefined) items.push({ kind: 'title', key, time, title: name });
    return;
  }
  if (type === 'compaction') {
    const keepId = asString(value.firstKeptEntryId);
    const keepIndex = value.firstKeptEntryIndex;
    // v1 counts lines from 0 with the header; v2+ names the entry.
    const keepFrom = firstKeptKey(
      entries,
      keepId !== undefined ? lineOfId.get(keepId) : typeof keepIndex === 'number' ? keepIndex + 1 : undefined,
    );
    items.push({
      kind: 'compaction',
      key,
      id: key,
      time,
      summary: asString(value.summary) ?? '',
      ...(keepFrom === undefined ? {} : { keepFrom }),
    });
    return;
  }
  if (type === 'branch_summary') {
    items.push({ kind: 'prompt', key, id: key, time, content: [text(asString(value.summary) ?? '')], opensTurn: false });
    return;
  }
  if (type === 'custom_message') {
    items.push({ kind: 'prompt', key, id: key, time, content: blocksOf(value.content, line, tally), opensTurn: false });
    return;
  }
  if (type !== 'message') return;
  const message = asRecord(value.message) ?? {};
  const role = asString(message.role);
  if (role === 'user') {
    items.push({ kind: 'prompt', key, id: key, time, content: blocksOf(message.content, line, tally), opensTurn: true });
  } else if (role === 'assistant') {
    const usage = usageOf(message.usage);
    const stop = asString(message.stopReason);
    const outcome =
      stop === 'aborted'
        ? { kind: 'cancelled' as const }
        : stop === 'error'
          ? { kind: 'error' as const, message: asString(message.errorMessage) ?? 'error' }
          : undefined;
    const model = asString(message.model);
    if (model !== undefined) items.push({ kind: 'config', key, time, config: { model } });
    items.push({
      kind: 'response',
      key,
      id: asString(message.responseId) ?? key,
      time,
      content: blocksOf(message.content, line, tally, { api: asString(message.api) }),
      ...(usage === undefined ? {} : { usage }),
      ...(outcome === undefined ? {} : { outcome }),
    });
  } else if (role === 'toolResult') {
    items.push({
      kind: 'result',
      key,
      id: key,
      time,
      callId: String(message.toolCallId),
      content: blocksOf(message.content, line, tally),
      isError: message.isError === true,
    });
  } else if (role === 'bashExecution') {
    if (message.excludeFromContext === true) return;
    const exit = typeof message.exitCode === 'number' ? `\n(exit code ${message.exitCode})` : '';
    const ran = `Ran \`${asString(message.command) ?? ''}\`\n\`\`\`\n${asString(message.output) ?? ''}\n\`\`\`${exit}`;
    items.push({ kind: 'prompt', key, id: key, time, content: [text(ran)], opensTurn: true });
  } else {
    tally.add(`messages of unknown role "${role ?? 'none'}" skipped`, line);
  }
}

/** Reads a pi session: the header, then its entries as a line (v1) or a tree (v2, v3). */
export function readPi(lines: readonly SourceLine[]): ReadTranscript {
  const tally = new WarningTally();
  const [head, ...rest] = lines;
  const header = head?.value ?? {};
  const { entries, nodes } = piEntries(rest, tally);
  const byKey = new Map(entries.map((entry) => [entry.key, entry]));
  const lineOfId = new Map(entries.map((entry) => [entry.key, entry.line]));
  const itemLines = linesOfTree(nodes).map((keys) =>
    itemsOf(
      keys.map((key) => byKey.get(key) as Entry),
      lineOfId,
      tally,
    ),
  );
  const config = piHeaderItem(header, rest[0]);
  if (config !== undefined) for (const items of itemLines) items.unshift(config);
  return {
    sessionId: asString(header.id),
    cwd: asString(header.cwd),
    createdAt: timeOf(header.timestamp),
    lines: itemLines,
    warnings: tally.messages(),
    effectOf: piEffectOf,
  };
}

/** The entries of a pi file's lines after its header, and their tree (`linesOfTree`'s nodes). */
export function piEntries(rest: readonly SourceLine[], tally: WarningTally): { entries: PiEntry[]; nodes: TreeNode[] } {
  const entries: Entry[] = [];
  const nodes: TreeNode[] = [];
  let previous: string | undefined;
  const seen = new Set<string>();
  for (const { line, value } of rest) {
    const type = asString(value.type) ?? '';
    const known = ['message', 'model_change', 'compaction', 'branch_summary', 'custom_message', 'session_info'].includes(type);
    if (!known && !QUIET_TYPES.has(type)) tally.add(`entries of unknown type "${type}" skipped`, line);
    const id = asString(value.id);
    // Entries without an id (v1) that carry nothing are dropped; with an id they link the tree.
    if (!known && id === undefined) continue;
    // Two entries on one physical line (a writer that lost a newline) keep distinct keys.
    let key = id ?? `L${line}`;
    while (seen.has(key)) key = `${key}+`;
    seen.add(key);
    // v1 has no ids: each entry follows the one before it.
    const parent = id === undefined ? previous : (asString(value.parentId) ?? undefined);
    entries.push({ line, key, value });
    nodes.push({ key, parent, order: nodes.length, message: type === 'message' });
    previous = key;
  }
  return { entries, nodes };
}

/** The configuration the header states (its cwd and model), dated by the first line after it; undefined when it states none. */
export function piHeaderItem(header: Record<string, unknown>, first: SourceLine | undefined): SourceItem | undefined {
  const cwd = asString(header.cwd);
  const model = asString(header.modelId);
  if (model === undefined && cwd === undefined) return undefined;
  const config = { ...(cwd === undefined ? {} : { cwd }), ...(model === undefined ? {} : { model }) };
  return { kind: 'config', key: 'header', time: timeOf(first?.value.timestamp) ?? 0, config };
}
