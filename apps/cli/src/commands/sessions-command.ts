import { sessionForest, type LineageTree, type SessionListItem } from 'dsh-host';
import type { CliContext } from '../cli-context.js';
import type { OptionValues } from '../parse-command-line.js';
import { withHost } from '../with-host.js';

function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ').trimEnd()).join('\n') + '\n';
}

/** The fork forest as indented lines: `title  id  @forkCut  status`. */
export function treeLines(trees: readonly LineageTree[], items: Map<string, SessionListItem>, prefix = ''): string[] {
  return trees.flatMap((tree, index) => {
    const last = index === trees.length - 1;
    const item = items.get(tree.id);
    const label = `${tree.title ?? '(unnamed)'}  ${tree.id}${tree.forkCut === undefined ? '' : `  @${tree.forkCut}`}  ${item?.status ?? ''}`.trimEnd();
    const branch = prefix === '' && tree.parentSession === undefined ? '' : last ? '└─ ' : '├─ ';
    const childPrefix = prefix + (branch === '' ? '' : last ? '   ' : '│  ');
    return [`${prefix}${branch}${label}`, ...treeLines(tree.children, items, childPrefix)];
  });
}

/** `dsh sessions [--tree] [--json]`: every session, newest first, or the fork forest. */
export async function sessionsCommand(context: CliContext, values: OptionValues): Promise<number> {
  const items = await withHost(context, values, (host) => host.list());
  if (values.tree === true) {
    const forest = sessionForest(items);
    if (values.json === true) context.stdout.write(`${JSON.stringify(forest, null, 2)}\n`);
    else context.stdout.write(forest.length === 0 ? 'no sessions\n' : `${treeLines(forest, new Map(items.map((item) => [item.id, item]))).join('\n')}\n`);
    return 0;
  }
  if (values.json === true) {
    context.stdout.write(`${JSON.stringify(items, null, 2)}\n`);
    return 0;
  }
  if (items.length === 0) {
    context.stdout.write('no sessions (start one with `dsh -p "…"`)\n');
    return 0;
  }
  const rows = items.map((item) => [
    item.id,
    item.title ?? '',
    item.parentSession === undefined ? '' : `${item.parentSession}@${String(item.forkCut)}`,
    String(item.lastSeq),
    new Date(item.updatedAt).toISOString(),
    item.status,
  ]);
  context.stdout.write(table([['ID', 'NAME', 'FORKED FROM', 'LAST SEQ', 'UPDATED', 'STATUS'], ...rows]));
  return 0;
}
