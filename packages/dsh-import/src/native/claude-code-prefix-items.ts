/**
 * `claudeCodePrefixItems`: a Claude Code chain's prefixes for `forEachPrefixReading`. The import of
 * a prefix reads the line ending at its last message: the ancestors of that message plus the
 * siblings it absorbs (parallel results, the other lines of a split response). On a chain whose
 * every line off the path to the last message is absorbed by lines written before it (checked once),
 * a prefix's line is its lines through its last message — except when that message is itself off the
 * path: then the lines between the path and it are checked as the import checks them, and lines left
 * out that hold nothing for the reading change nothing.
 */
import { ClaudeCodeFacts, ClaudeCodeItems, type ClaudeCodeItemsSnapshot } from '../claude-code/read-claude-code.js';
import { claudeCodeEffectOf } from '../claude-code/claude-code-effects.js';
import { sourceOf } from '../import-transcript.js';
import { asRecord, asString } from '../read-transcript.js';
import { WarningTally } from '../source-item.js';
import type { NativeLine } from './native-line.js';
import type { PrefixItems } from './prefix-items.js';

/** The tool_use ids an assistant line declares (the import's `callOwner` files it under each). */
function declaredCalls(value: Record<string, unknown>): string[] {
  const message = asRecord(value.message);
  if (value.type !== 'assistant' || message === undefined || !Array.isArray(message.content)) return [];
  const ids: string[] = [];
  for (const block of message.content as unknown[]) {
    const record = asRecord(block);
    if (record !== undefined && record.type === 'tool_use') ids.push(String(record.id));
  }
  return ids;
}

/** The results' call ids when `content` holds blocks, all `tool_result`s (what the import's sibling rule accepts), else undefined. */
function resultCalls(content: unknown): string[] | undefined {
  if (!Array.isArray(content)) return undefined;
  const calls: string[] = [];
  for (const item of content as unknown[]) {
    const block = asRecord(item);
    if (block === undefined) continue;
    if (block.type !== 'tool_result') return undefined;
    calls.push(String(block.tool_use_id));
  }
  return calls.length > 0 ? calls : undefined;
}

/** The prefixes of `chain` (the main line's lines in chain order); undefined when the chain is not as above. */
export function claudeCodePrefixItems(chain: readonly NativeLine[]): PrefixItems | undefined {
  const n = chain.length;
  const values = chain.map((line) => line.value);
  const position = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const uuid = asString((values[i] as Record<string, unknown>).uuid);
    if (uuid === undefined || position.has(uuid)) return undefined;
    position.set(uuid, i);
  }
  const sidechain = values.filter((value) => value.isSidechain === true).length;
  if (sidechain !== 0 && sidechain !== n) return undefined;
  // Each line's parent as the import of any prefix holding it links it (a parent the chain lacks: the line before).
  const parent = new Int32Array(n);
  const isMessage = new Uint8Array(n);
  const messageId: (string | undefined)[] = [];
  const holders = new Map<string, number[]>();
  for (let i = 0; i < n; i++) {
    const value = values[i] as Record<string, unknown>;
    const raw = asString(value.parentUuid) ?? asString(value.logicalParentUuid);
    const at = raw === undefined ? undefined : position.get(raw);
    if (at !== undefined && at >= i) return undefined;
    parent[i] = raw === undefined ? -1 : (at ?? i - 1);
    const message = asRecord(value.message);
    isMessage[i] = value.type === 'user' || value.type === 'assistant' ? 1 : 0;
    if (isMessage[i] === 0 && message !== undefined) return undefined;
    messageId.push(value.type === 'assistant' && message !== undefined ? asString(message.id) : undefined);
    for (const call of declaredCalls(value)) {
      const list = holders.get(call);
      if (list === undefined) holders.set(call, [i]);
      else list.push(i);
    }
  }
  // The path from the root to the chain's last message.
  let leaf = n - 1;
  for (let i = n - 1; i >= 0; i--)
    if (isMessage[i] === 1) {
      leaf = i;
      break;
    }
  const onPath = new Uint8Array(n);
  for (let i = leaf; i >= 0; i = parent[i] as number) onPath[i] = 1;
  const mates = new Map<string, number[]>();
  messageId.forEach((id, i) => {
    if (id === undefined) return;
    const list = mates.get(id);
    if (list === undefined) mates.set(id, [i]);
    else list.push(i);
  });
  // The import's sibling rule for line `y` of the prefix through `p`, lines marked by `marked`.
  const absorbed = (y: number, p: number, marked: (i: number) => boolean): boolean => {
    const value = values[y] as Record<string, unknown>;
    const message = asRecord(value.message);
    if (message === undefined) return false;
    if (value.type === 'assistant') {
      const id = messageId[y];
      return id !== undefined && (mates.get(id) ?? []).some((i) => i !== y && i <= p && marked(i));
    }
    const calls = resultCalls(message.content);
    if (calls === undefined) return false;
    return calls.every((call) => {
      // The import files a call under the last line of the prefix declaring it.
      const owners = (holders.get(call) ?? []).filter((i) => i <= p);
      const owner = owners[owners.length - 1];
      return owner !== undefined && marked(owner);
    });
  };
  // Every line off the path is a message the sibling rule absorbs by lines written before it (all of
  // which, by the same rule, are on the line of any prefix whose last message is on the path).
  for (let y = 0; y < n; y++) {
    if (onPath[y] === 1) continue;
    if (isMessage[y] === 0 || (parent[y] as number) < 0) return undefined;
    const calls = resultCalls(asRecord(values[y]?.message)?.content);
    if (calls !== undefined && calls.some((call) => holders.get(call)?.length !== 1)) return undefined;
    if (!absorbed(y, y, (i) => i < y)) return undefined;
  }

  const facts = new ClaudeCodeFacts();
  let agentId: string | undefined;
  const reader = new ClaudeCodeItems(new WarningTally());
  const inert = new Uint8Array(n);
  // Where the reader stood before each line it read.
  const snapshots: ClaudeCodeItemsSnapshot[] = [];
  let fed = 0;
  let lastMessage = -1;
  const prefix: PrefixItems = {
    items: reader.items,
    get changedFrom() {
      return reader.changedFrom;
    },
    set changedFrom(value: number) {
      reader.changedFrom = value;
    },
    openFrom: () => reader.openFrom(),
    advance: (p) => {
      const value = values[p] as Record<string, unknown>;
      facts.add(value);
      if (sidechain === n && agentId === undefined && typeof value.agentId === 'string') agentId = value.agentId;
      // The prefix's line ends at its last message (at its last line while it has none).
      if (isMessage[p] === 1) lastMessage = p;
      const end = lastMessage < 0 ? p : lastMessage;
      for (; fed <= end; fed++) {
        snapshots.push(reader.snapshot());
        reader.add({ line: fed + 1, value: values[fed] as Record<string, unknown> });
        inert[fed] = reader.inert ? 1 : 0;
      }
      if (onPath[end] === 1) return true;
      // A message off the path: its ancestors are its parents back to the path, and every line up to
      // there; a line after that is on its line when the sibling rule absorbs it, one after the other.
      const ancestors = new Set<number>();
      let up = end;
      while (onPath[up] !== 1) {
        ancestors.add(up);
        up = parent[up] as number;
      }
      const marks = new Uint8Array(end - up);
      const marked = (i: number): boolean => i <= up || ancestors.has(i) || (i < end && marks[i - up] === 1);
      let left: number | undefined;
      for (let y = up + 1; y < end; y++) {
        if (ancestors.has(y)) continue;
        const linked = parent[y] as number;
        if (linked >= 0 && marked(linked) && absorbed(y, p, marked)) marks[y - up] = 1;
        else if (inert[y] !== 1) left ??= y;
      }
      if (left === undefined) return true;
      // A line left out that the reading holds: the prefix's items are read on from before it, without the lines left out.
      const snapshot = snapshots[left] as ClaudeCodeItemsSnapshot;
      const other = reader.restored(snapshot);
      for (let y = left; y <= end; y++) if (marked(y)) other.add({ line: y + 1, value: values[y] as Record<string, unknown> });
      const from = Math.min(snapshot.length, ...snapshot.responses.map((response) => response.index));
      return { items: other.items, from };
    },
    source: () => ({
      source: sourceOf('claude-code', { sessionId: facts.sessionId, links: facts.links(agentId) }),
      createdAt: facts.createdAt,
    }),
    keyed: new Set(),
    effectOf: claudeCodeEffectOf,
  };
  return prefix;
}
