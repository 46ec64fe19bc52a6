/**
 * @module touched-paths
 * Which workspace files a recorded tool call touched, for SPEC §23's stale note: the path its
 * arguments name (`path`, `file_path` or `notebook_path` — dsh's file tools and Claude Code's:
 * dsh-session's `FILE_ARGUMENTS`), relative to the session's cwd. A shell command's paths are not
 * guessed: no parser knows what a command touches.
 */
import { isAbsolute, posix, relative } from 'node:path';
import type { SessionEvent } from 'dsh-codec';
import { fileCallOf, type FileCall } from 'dsh-session';

/**
 * The workspace paths a `tool/call` names, relative to `cwd` and normalised (`.` for the cwd itself);
 * paths outside the cwd, unparsable arguments and other events give none.
 */
export function toolCallPaths(call: SessionEvent, cwd: string | undefined): string[] {
  const fileCall = fileCallOf(call);
  return fileCall === undefined ? [] : fileCallPaths(fileCall, cwd);
}

/** `toolCallPaths` of a call already reduced to its file arguments (`findFileCalls`). */
export function fileCallPaths(call: FileCall, cwd: string | undefined): string[] {
  if (call.paths === undefined) return [];
  const paths: string[] = [];
  for (const value of call.paths) {
    const path = workspacePath(value, cwd);
    if (path !== undefined) paths.push(path);
  }
  // list_files takes no path for the cwd itself.
  if (paths.length === 0 && call.name === 'list_files') paths.push('.');
  return paths;
}

/** `path` as a workspace-relative path with `/` separators, or undefined when it leaves `cwd` or says nothing. */
function workspacePath(path: string, cwd: string | undefined): string | undefined {
  if (path === '') return undefined;
  let inside = path;
  if (isAbsolute(path)) {
    if (cwd === undefined) return undefined;
    inside = relative(cwd, path);
  }
  const normal = posix.normalize(inside).replace(/\/+$/, '');
  if (normal === '' || normal === '.') return '.';
  if (normal === '..' || normal.startsWith('../') || posix.isAbsolute(normal)) return undefined;
  return normal;
}

/**
 * Whether a change to `path` makes a result about a `touched` path stale: the same path, or — when
 * the path appeared or went (`entriesChanged`) — a path under a touched directory, whose listing changed.
 */
export function touchedBy(touched: ReadonlySet<string>, path: string, entriesChanged: boolean): boolean {
  if (touched.has(path)) return true;
  if (!entriesChanged) return false;
  if (touched.has('.')) return true;
  for (let slash = path.lastIndexOf('/'); slash > 0; slash = path.lastIndexOf('/', slash - 1)) {
    if (touched.has(path.slice(0, slash))) return true;
  }
  return false;
}
