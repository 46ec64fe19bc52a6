/**
 * Where Claude Code, Codex and pi keep their session files, and what each holds at a glance: a
 * session id that names no dsh session is looked up there (`dsh fork|export|show ID`), and
 * `dsh sessions --claude|--codex|--pi` lists them. Homes: Claude Code `$CLAUDE_CONFIG_DIR` or
 * `~/.claude` (`projects/<dir>/<id>.jsonl`), Codex `$CODEX_HOME` or `~/.codex`
 * (`sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`), pi `$PI_CODING_AGENT_DIR` or `~/.pi/agent`
 * (`sessions/<dir>/<time>_<id>.jsonl`).
 */
import { open, readdir, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import type { CliContext } from './cli-context.js';

/** The tools whose session folders dsh reads. */
export const NATIVE_TOOLS = ['claude', 'codex', 'pi'] as const;
/** One of `NATIVE_TOOLS`. */
export type NativeTool = (typeof NATIVE_TOOLS)[number];

/** One session file of a tool, as `dsh sessions --claude|--codex|--pi` lists it. */
export type NativeSessionFile = { tool: NativeTool; id: string; file: string; updatedAt: number; cwd?: string; title?: string };

const HEAD_BYTES = 256 * 1024;
const TITLE_LENGTH = 80;

function home(context: CliContext): string {
  return context.env.HOME !== undefined && context.env.HOME !== '' ? context.env.HOME : homedir();
}

function envDir(context: CliContext, name: string): string | undefined {
  const value = context.env[name];
  return value === undefined || value === '' ? undefined : value;
}

/** The folder holding `tool`'s session files in this environment. */
export function nativeSessionsDir(context: CliContext, tool: NativeTool): string {
  if (tool === 'claude') return join(envDir(context, 'CLAUDE_CONFIG_DIR') ?? join(home(context), '.claude'), 'projects');
  if (tool === 'codex') return join(envDir(context, 'CODEX_HOME') ?? join(home(context), '.codex'), 'sessions');
  return join(envDir(context, 'PI_CODING_AGENT_DIR') ?? join(home(context), '.pi', 'agent'), 'sessions');
}

/** The session id a file name gives, or undefined when the name is not one of `tool`'s session files. */
export function sessionIdOfName(tool: NativeTool, name: string): string | undefined {
  const uuid = '([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})';
  const pattern =
    tool === 'claude'
      ? new RegExp(`^${uuid}\\.jsonl$`)
      : tool === 'codex'
        ? new RegExp(`^rollout-.*-${uuid}\\.jsonl$`)
        : new RegExp(`^.*_${uuid}\\.jsonl$`);
  return pattern.exec(name)?.[1];
}

/** Every `.jsonl` file under `dir`, depth-first (Codex nests by date; Claude's subagent files are skipped). */
async function jsonlFiles(dir: string, depth: number): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const found: string[] = [];
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && depth > 0 && entry.name !== 'subagents') found.push(...(await jsonlFiles(path, depth - 1)));
    else if (entry.isFile() && entry.name.endsWith('.jsonl')) found.push(path);
  }
  return found;
}

/** `tool`'s session files: id and path (depth: Claude 1, pi 1, Codex 3 folders below the sessions folder). */
async function sessionFiles(context: CliContext, tool: NativeTool): Promise<{ id: string; file: string }[]> {
  const files = await jsonlFiles(nativeSessionsDir(context, tool), tool === 'codex' ? 4 : 1);
  return files.flatMap((file) => {
    const id = sessionIdOfName(tool, basename(file));
    return id === undefined ? [] : [{ id, file }];
  });
}

/** The session file of a Claude Code, Codex or pi session `id` (the first tool that has it), or undefined. */
export async function findNativeSessionFile(context: CliContext, id: string): Promise<{ tool: NativeTool; file: string } | undefined> {
  if (sessionIdOfName('claude', `${id}.jsonl`) === undefined) return undefined;
  for (const tool of NATIVE_TOOLS) {
    const match = (await sessionFiles(context, tool)).find((entry) => entry.id === id);
    if (match !== undefined) return { tool, file: match.file };
  }
  return undefined;
}

// eslint-disable-next-line no-control-regex -- control characters are what a listing may not print
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]+/g;

function oneLine(text: string): string | undefined {
  const words = text.replace(CONTROL_CHARACTERS, ' ').replace(/\s+/g, ' ').trim();
  if (words === '' || words.startsWith('<') || words.startsWith('# AGENTS.md') || words.startsWith('[Request interrupted'))
    return undefined;
  return words.length > TITLE_LENGTH ? `${words.slice(0, TITLE_LENGTH - 1)}…` : words;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((block: { type?: string; text?: string }) => (block.type === 'text' || block.type === 'input_text' ? (block.text ?? '') : ''))
    .join(' ');
}

/** The cwd and a title (a title line, else the first prompt in the user's own words) from a file's first lines. */
function summarise(tool: NativeTool, head: string): { cwd?: string; title?: string } {
  let cwd: string | undefined;
  let prompt: string | undefined;
  let title: string | undefined;
  for (const raw of head.split('\n')) {
    let value: Record<string, unknown>;
    try {
      value = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      continue;
    }
    const payload = (typeof value.payload === 'object' && value.payload !== null ? value.payload : {}) as Record<string, unknown>;
    if (cwd === undefined) cwd = [value.cwd, payload.cwd].find((candidate): candidate is string => typeof candidate === 'string');
    if (tool === 'claude' && typeof (value.customTitle ?? value.aiTitle ?? value.summary) === 'string')
      title = String(value.customTitle ?? value.aiTitle ?? value.summary);
    if (tool === 'pi' && value.type === 'session_info' && typeof value.name === 'string') title = value.name;
    if (prompt !== undefined) continue;
    const message = (typeof value.message === 'object' && value.message !== null ? value.message : {}) as Record<string, unknown>;
    if (tool === 'claude' && value.type === 'user' && value.isMeta !== true) prompt = oneLine(textOf(message.content));
    if (tool === 'pi' && value.type === 'message' && message.role === 'user') prompt = oneLine(textOf(message.content));
    if (tool === 'codex' && payload.type === 'message' && payload.role === 'user') prompt = oneLine(textOf(payload.content));
  }
  const shown = title ?? prompt;
  return { ...(cwd === undefined ? {} : { cwd }), ...(shown === undefined ? {} : { title: shown }) };
}

async function headOf(file: string): Promise<string> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}

/** `tool`'s sessions, most recently written first, each with what its first 256 KiB say. */
export async function listNativeSessions(context: CliContext, tool: NativeTool): Promise<NativeSessionFile[]> {
  const listed: NativeSessionFile[] = [];
  for (const { id, file } of await sessionFiles(context, tool)) {
    try {
      const info = await stat(file);
      listed.push({ tool, id, file, updatedAt: info.mtimeMs, ...summarise(tool, await headOf(file)) });
    } catch {
      // A file removed while listing is not listed.
    }
  }
  return listed.sort((a, b) => b.updatedAt - a.updatedAt || a.id.localeCompare(b.id));
}
