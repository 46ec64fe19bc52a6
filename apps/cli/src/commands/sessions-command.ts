/**
 * @module sessions-command
 * `dsh sessions`: every session (or the fork forest with `--tree`), the names forks list under,
 * peer marks; or a tool's own session files with `--claude|--codex|--pi`.
 */
import { sessionForest, type LineageTree, type SessionListItem } from 'dsh-host/core';
import type { CliContext } from '../cli-context.js';
import { claudeSdkLineage, type ClaudeSdkFork } from '../claude-sdk-lineage.js';
import { CliError } from '../cli-error.js';
import { listNativeSessions, NATIVE_TOOLS, nativeSessionsDir, type NativeTool } from '../native-session-files.js';
import type { OptionValues } from '../parse-command-line.js';
import { withHost } from '../with-host.js';
import { terminalLine } from '../terminal-text.js';
import { fitTable, outputWidth } from '../fit-table.js';

/**
 * The name each session lists under: its own title; an unnamed fork as `<parent's name> @ <cut>`
 * (the parent's id when it has no name or is gone), so a fork never lists as its parent.
 */
export function displayNames(items: readonly SessionListItem[], inherited: ReadonlySet<string>): Map<string, string> {
  const byId = new Map(items.map((item) => [item.id, item]));
  const names = new Map<string, string>();
  const nameOf = (item: SessionListItem, depth: number): string => {
    const known = names.get(item.id);
    if (known !== undefined) return known;
    let name = '';
    if (item.title !== undefined && !inherited.has(item.id)) name = item.title;
    else if (item.parentSession !== undefined) {
      const parent = byId.get(item.parentSession);
      const parentName = parent === undefined || depth > 64 ? item.parentSession : nameOf(parent, depth + 1) || parent.id;
      name = `${parentName} @ ${String(item.forkCut)}`;
    }
    names.set(item.id, name);
    return name;
  };
  for (const item of items) nameOf(item, 0);
  return names;
}

/** `[peer of NAME @ CUT]` for each of `siblings` that shares its parent and cut with another of them (SPEC §20 peers). */
function peerMarks(
  siblings: readonly LineageTree[],
  items: Map<string, SessionListItem>,
  names: ReadonlyMap<string, string>,
): Map<string, string> {
  const keyOf = (tree: LineageTree) =>
    tree.parentSession === undefined || tree.forkCut === undefined ? undefined : `${tree.parentSession}\u0000${String(tree.forkCut)}`;
  const counts = new Map<string, number>();
  for (const tree of siblings) {
    const key = keyOf(tree);
    if (key !== undefined) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const marks = new Map<string, string>();
  for (const tree of siblings) {
    const key = keyOf(tree);
    if (key === undefined || (counts.get(key) ?? 0) < 2 || tree.parentSession === undefined) continue;
    const parent = names.get(tree.parentSession) || items.get(tree.parentSession)?.title || tree.parentSession;
    marks.set(tree.id, `[peer of ${parent} @ ${String(tree.forkCut)}]`);
  }
  return marks;
}

/** The fork forest as indented lines: `name  id  @forkCut  [peer of P @ cut]  status`. */
export function treeLines(
  trees: readonly LineageTree[],
  items: Map<string, SessionListItem>,
  prefix = '',
  names: ReadonlyMap<string, string> = new Map(),
): string[] {
  const marks = peerMarks(trees, items, names);
  return trees.flatMap((tree, index) => {
    const last = index === trees.length - 1;
    const item = items.get(tree.id);
    const mark = marks.get(tree.id);
    const label = terminalLine(
      `${names.get(tree.id) || tree.title || '(unnamed)'}  ${tree.id}${tree.forkCut === undefined ? '' : `  @${tree.forkCut}`}${mark === undefined ? '' : `  ${mark}`}  ${item?.status ?? ''}`.trimEnd(),
    );
    const branch = prefix === '' && tree.parentSession === undefined ? '' : last ? '└─ ' : '├─ ';
    const childPrefix = prefix + (branch === '' ? '' : last ? '   ' : '│  ');
    return [`${prefix}${branch}${label}`, ...treeLines(tree.children, items, childPrefix, names)];
  });
}

/** `dsh sessions --claude|--codex|--pi [--json]`: that tool's session files, most recently written first. */
async function nativeSessions(context: CliContext, tool: NativeTool, json: boolean): Promise<number> {
  const listed = await listNativeSessions(context, tool);
  if (json) {
    context.stdout.write(
      `${JSON.stringify(
        listed.map((item) => ({ ...item, updatedAt: new Date(item.updatedAt).toISOString() })),
        null,
        2,
      )}\n`,
    );
    return 0;
  }
  if (listed.length === 0) {
    context.stdout.write(`no ${tool} sessions in ${nativeSessionsDir(context, tool)}\n`);
    return 0;
  }
  const rows = listed.map((item) => [item.id, new Date(item.updatedAt).toISOString(), item.cwd ?? '', item.title ?? '', item.file]);
  // Titles, then paths give way to the terminal's width; the id (what commands take) never does.
  const fit = { shrink: [3, 2, 4], drop: [4, 2, 1] };
  context.stdout.write(fitTable(['ID', 'UPDATED', 'CWD', 'TITLE', 'FILE'], rows, outputWidth(context), fit));
  context.stderr.write(`dsh: fork one in place with \`dsh fork ID --at REF\`; see its seqs with \`dsh show ID\`\n`);
  return 0;
}

/** The FORKED FROM cell: `PARENT@CUT` for a dsh fork; an SDK fork's parent with its entry, or `(forkSession)`. */
function forkedFrom(item: SessionListItem, fork: ClaudeSdkFork | undefined): string {
  if (item.parentSession !== undefined) return `${item.parentSession}@${String(item.forkCut)}`;
  if (fork === undefined) return '';
  return fork.at === undefined ? `${fork.parentSession} (forkSession)` : `${fork.parentSession}@entry ${fork.at}`;
}

/** `dsh sessions [--tree] [--json]`: every session, newest first, or the fork forest; `--claude|--codex|--pi`: that tool's. */
export async function sessionsCommand(context: CliContext, values: OptionValues): Promise<number> {
  const tools = NATIVE_TOOLS.filter((tool) => values[tool] === true);
  if (tools.length > 1)
    throw new CliError(
      'USAGE',
      `--claude, --codex and --pi list one tool's sessions; received ${tools.map((tool) => `--${tool}`).join(' and ')}.`,
    );
  const tool = tools[0];
  if (tool !== undefined) {
    if (values.tree === true) throw new CliError('USAGE', `--tree lists dsh sessions; --${tool} lists that tool's session files.`);
    return nativeSessions(context, tool, values.json === true);
  }
  const { items, inherited, sdkForks } = await withHost(context, values, async (host, _dataDir, store) => {
    const listed = await host.list();
    // Claude Agent SDK transcripts are dsh sessions of their own: their fork lineage is in their first events.
    const forks = await claudeSdkLineage(store, listed);
    if (values.json === true) return { items: listed, inherited: new Set<string>(), sdkForks: forks };
    // The forks whose latest title came with their inherited prefix, as the summaries say (no log is read).
    const summaries = await store.list();
    return {
      items: listed,
      inherited: new Set(summaries.filter((summary) => summary.titleInherited === true).map((summary) => summary.id)),
      sdkForks: forks,
    };
  });
  const names = displayNames(items, inherited);
  if (values.tree === true) {
    // An SDK fork hangs under its parent (no dsh cut: no `@N`).
    const forest = sessionForest(
      items.map((item) => {
        const fork = sdkForks.get(item.id);
        return fork === undefined ? item : { ...item, parentSession: fork.parentSession };
      }),
    );
    if (values.json === true) context.stdout.write(`${JSON.stringify(forest, null, 2)}\n`);
    else
      context.stdout.write(
        forest.length === 0
          ? 'no sessions\n'
          : `${treeLines(forest, new Map(items.map((item) => [item.id, item])), '', names).join('\n')}\n`,
      );
    return 0;
  }
  if (values.json === true) {
    const rows = items.map((item) => {
      const fork = sdkForks.get(item.id);
      return fork === undefined ? item : { ...item, claudeFork: fork };
    });
    context.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    return 0;
  }
  if (items.length === 0) {
    context.stdout.write('no sessions (start one with `dsh -p "…"`)\n');
    return 0;
  }
  const rows = items.map((item) => [
    item.id,
    names.get(item.id) ?? '',
    forkedFrom(item, sdkForks.get(item.id)),
    String(item.lastSeq),
    new Date(item.updatedAt).toISOString(),
    item.status,
  ]);
  // Names, then lineage give way to the terminal's width (SPEC §25); the id (what commands take) never does.
  const fit = { shrink: [1, 2], drop: [2, 4, 3] };
  context.stdout.write(fitTable(['ID', 'NAME', 'FORKED FROM', 'LAST SEQ', 'UPDATED', 'STATUS'], rows, outputWidth(context), fit));
  return 0;
}
