import { readFile } from 'node:fs/promises';

/** The last entries of a Claude Code transcript, summarised (`assistant tool_use ×2`, …). */
export async function describeClaudeChild(path: string): Promise<{ ends: string; lines: number }> {
  const lines = (await readFile(path, 'utf8')).split('\n').filter((line) => line !== '');
  const kinds: string[] = [];
  for (const line of lines) {
    const entry = JSON.parse(line) as { type?: string; message?: { content?: unknown } };
    const content = entry.message?.content;
    const block = Array.isArray(content)
      ? (content[0] as { type?: string } | undefined)?.type
      : typeof content === 'string'
        ? 'text'
        : undefined;
    kinds.push(`${entry.type ?? '?'}${block === undefined ? '' : ` ${block}`}`);
  }
  const tail: string[] = [];
  for (let index = kinds.length - 1; index >= 0 && tail.length < 4; index -= 1) {
    const kind = kinds[index] ?? '';
    const previous = tail.at(-1);
    const match = previous === undefined ? undefined : /^(.*) ×(\d+)$/.exec(previous);
    if (previous === kind) tail[tail.length - 1] = `${kind} ×2`;
    else if (match?.[1] === kind) tail[tail.length - 1] = `${kind} ×${String(Number(match[2]) + 1)}`;
    else tail.push(kind);
  }
  return { ends: `… ${tail.reverse().join(', ')}`, lines: lines.length };
}
