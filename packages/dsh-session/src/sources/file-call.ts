/**
 * @module `FileCall`: what a recorded `tool/call` says about files — its tool, its effect and the string
 * values of the arguments file tools name a path with — the one projection of a call that both a search
 * of a live log and a sealed segment's index (`jsonl/segments/segment-index.ts`) produce, so a long
 * history's files are known without decoding its calls again.
 */
import type { SessionEvent } from 'dsh-codec';

/** The arguments that name a file or directory in the file tools dsh runs or imports (dsh's and Claude Code's). */
export const FILE_ARGUMENTS = ['path', 'file_path', 'notebook_path'] as const;

/**
 * One tool call's file arguments: its tool `name`, its `effect` as recorded, and `paths`, the string
 * values of its `FILE_ARGUMENTS` in that order (empty when it names none; absent when its arguments are
 * not a JSON object).
 */
export type FileCall = { readonly name: string; readonly effect?: string; readonly paths?: readonly string[] };

/** The `FileCall` of a `tool/call` event; undefined for any other event. */
export function fileCallOf(event: SessionEvent): FileCall | undefined {
  if (event.type !== 'tool/call') return undefined;
  const data = event.data as { name?: unknown; effect?: unknown; arguments?: unknown };
  const name = typeof data.name === 'string' ? data.name : '';
  const effect = typeof data.effect === 'string' ? data.effect : undefined;
  const paths = argumentPaths(data.arguments);
  return { name, ...(effect === undefined ? {} : { effect }), ...(paths === undefined ? {} : { paths }) };
}

/** The key under which two calls with the same file arguments count once. */
export function fileCallKey(call: FileCall): string {
  return JSON.stringify([call.name, call.effect ?? null, call.paths ?? null]);
}

/** The distinct calls of `calls`, first seen first. */
export function distinctFileCalls(calls: Iterable<FileCall>): FileCall[] {
  const seen = new Map<string, FileCall>();
  for (const call of calls) {
    const key = fileCallKey(call);
    if (!seen.has(key)) seen.set(key, call);
  }
  return [...seen.values()];
}

function argumentPaths(text: unknown): string[] | undefined {
  if (typeof text !== 'string') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const paths: string[] = [];
  for (const name of FILE_ARGUMENTS) {
    const value = (parsed as Record<string, unknown>)[name];
    if (typeof value === 'string') paths.push(value);
  }
  return paths;
}
