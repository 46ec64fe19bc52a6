/**
 * Where each tool keeps what the native tests look up in its session file — the source's own
 * session id and the entry holding the call (whose REF `dsh fork FILE --at` takes) — and how the
 * tool's resume names a session, as `dsh fork FILE --json` and `dsh export` print it.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { expect } from 'vitest';
import type { NativeTool } from './native-session.js';

type Line = Record<string, unknown>;

/** Whether `line` is the entry that holds the tool's call. */
function holdsCall(tool: NativeTool, line: Line): boolean {
  if (tool === 'claude-code') return line.type === 'assistant' && JSON.stringify(line.message).includes('"tool_use"');
  if (tool === 'codex') return (line.payload as { type?: string } | undefined)?.type === 'function_call';
  return JSON.stringify(line.message ?? {}).includes('"toolCall"');
}

/** The entry holding the call, and its REF: Claude Code its `uuid`, pi its `id`, Codex its `ordinal`. */
export function callEntry(tool: NativeTool, lines: readonly Line[]): { line: Line | undefined; ref: string } {
  const line = lines.find((candidate) => holdsCall(tool, candidate));
  const ref = tool === 'claude-code' ? line?.uuid : tool === 'codex' ? line?.ordinal : line?.id;
  return { line, ref: String(ref) };
}

/** The source's own session id: Claude Code's `sessionId`, Codex's `session_meta` id, pi's header id. */
export function sourceSessionId(tool: NativeTool, lines: readonly Line[]): string {
  if (tool === 'claude-code') return String(callEntry(tool, lines).line?.sessionId);
  if (tool === 'codex') return String((lines[0]?.payload as { id?: string } | undefined)?.id);
  return String(lines[0]?.id);
}

/** What the tool's resume takes (Claude Code and Codex a session id, pi the file) and the argv dsh prints. */
export function resumeOf(tool: NativeTool, session: { id: string; file: string }): { ref: string; argv: string[] } {
  if (tool === 'claude-code') return { ref: session.id, argv: ['claude', '--resume', session.id] };
  if (tool === 'codex') return { ref: session.id, argv: ['codex', 'exec', 'resume', session.id] };
  return { ref: session.file, argv: ['pi', '--session', session.file] };
}

/** The file name the tool's resume finds beside its own: `<uuid>.jsonl`, `rollout-<time>-<id>.jsonl`, `<iso time>_<id>.jsonl`. */
export function childFilePattern(tool: NativeTool, id: string): RegExp {
  if (tool === 'claude-code') return new RegExp(`/${id}\\.jsonl$`);
  if (tool === 'codex') return new RegExp(`/rollout-[0-9T-]+-${id}\\.jsonl$`);
  return new RegExp(`/[0-9TZ-]+_${id}\\.jsonl$`);
}

/** What a kill right after the tool wrote the call's entry leaves: `file` cut after that line. Returns the text kept. */
export async function killAtCall(tool: NativeTool, file: string): Promise<string> {
  const raw = (await readFile(file, 'utf8')).split('\n');
  const cutAt = raw.findIndex((line) => line.trim() !== '' && holdsCall(tool, JSON.parse(line) as Line));
  expect(cutAt, 'the file holds the call').toBeGreaterThan(0);
  const killed = `${raw.slice(0, cutAt + 1).join('\n')}\n`;
  await writeFile(file, killed);
  return killed;
}
