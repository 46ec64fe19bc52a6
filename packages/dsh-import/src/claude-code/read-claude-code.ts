/**
 * Claude Code session files (`~/.claude/projects/<dir>/<session>.jsonl`): a `uuid`/`parentUuid` tree of
 * user, assistant, system and progress lines, plus untreed lines (summary, titles, snapshots, queue
 * operations). One API response is split over several assistant lines sharing `message.id`.
 * The entry-by-entry reading is `claude-code-items.ts` (blocks: `claude-code-blocks.ts`), the session's
 * facts `claude-code-facts.ts`; this module joins them over the tree's lines.
 */
import type { SourceLine } from '../read-lines.js';
import { asString, type ReadTranscript } from '../read-transcript.js';
import { WarningTally, type SourceItem } from '../source-item.js';
import { linesOfTree } from '../transcript-tree.js';
import { CLAUDE_CODE_QUIET_TYPES, CLAUDE_CODE_TITLE_TYPES } from './claude-code-line-types.js';
import { claudeCodeTree, type ClaudeCodeEntry } from './claude-code-tree.js';
import { claudeCodeEffectOf } from './claude-code-effects.js';
import { ClaudeCodeFacts } from './claude-code-facts.js';
import { ClaudeCodeItems } from './claude-code-items.js';

// native/'s prefix reading imports these from here.
export { ClaudeCodeFacts } from './claude-code-facts.js';
export { ClaudeCodeItems, type ClaudeCodeItemsSnapshot } from './claude-code-items.js';

type Entry = ClaudeCodeEntry;

/** The items of one line of the tree (its entries in file order). */
function itemsOf(entries: readonly Entry[], tally: WarningTally): SourceItem[] {
  const reader = new ClaudeCodeItems(tally);
  for (const entry of entries) reader.add(entry);
  return reader.items;
}

/** Reads a Claude Code transcript: the main line and every branch, as item streams. */
export function readClaudeCode(lines: readonly SourceLine[]): ReadTranscript {
  const tally = new WarningTally();
  const warnings: string[] = [];
  const titles: { title: string; rank: number }[] = [];
  for (const { value } of lines) {
    const type = asString(value.type) ?? '';
    if (!CLAUDE_CODE_TITLE_TYPES.has(type)) continue;
    const title = asString(value.customTitle) ?? asString(value.aiTitle) ?? asString(value.summary) ?? asString(value.title);
    if (title !== undefined) titles.push({ title, rank: type === 'custom-title' ? 2 : type === 'ai-title' ? 1 : 0 });
  }
  const { entries, nodes, absorbs, allSidechain } = claudeCodeTree(lines, CLAUDE_CODE_QUIET_TYPES, tally);
  // In chain order.
  const facts = new ClaudeCodeFacts();
  for (const node of nodes) facts.add((entries.get(node.key) as Entry).value);
  const { sessionId, cwd, createdAt } = facts;
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
  const agentId = allSidechain ? subagentIdOf(lines) : undefined;
  return { sessionId, links: facts.links(agentId), cwd, createdAt, lines: itemLines, warnings, effectOf: claudeCodeEffectOf };
}

/** A subagent file's own id: the `agentId` of its first entry that has one. */
export function subagentIdOf(lines: readonly SourceLine[]): string | undefined {
  return asString(lines.find((l) => typeof l.value.uuid === 'string' && typeof l.value.agentId === 'string')?.value.agentId);
}
