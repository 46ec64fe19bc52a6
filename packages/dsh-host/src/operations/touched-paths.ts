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

/**
 * The touched paths among `candidates`: those `calls` name (as `fileCallPaths` reads them) that are
 * candidates. What a note needs is whether a few changed paths (and their folders) were touched, not
 * the whole touched set: this keeps no other path, and relativises a path already written the way
 * `fileCallPaths` would give it without `path.relative` (SPEC §24: a long history names tens of
 * thousands of paths).
 */
export function touchedAmong(calls: Iterable<FileCall>, cwd: string | undefined, candidates: ReadonlySet<string>): Set<string> {
  const found = new Set<string>();
  if (candidates.size === 0) return found;
  for (const call of calls) {
    if (call.paths === undefined) continue;
    let named = false;
    for (const value of call.paths) {
      const path = workspacePath(value, cwd);
      if (path === undefined) continue;
      named = true;
      if (candidates.has(path)) found.add(path);
    }
    if (!named && call.name === 'list_files' && candidates.has('.')) found.add('.');
  }
  return found;
}

/**
 * The paths whose being touched `touchedBy` asks about for `paths`: each path, every folder above it, and
 * the cwd (`.`). `touchedBy(touched, path, …)` equals `touchedBy(touched ∩ candidates, path, …)`.
 */
export function touchedCandidates(paths: Iterable<string>): Set<string> {
  const candidates = new Set<string>(['.']);
  for (const path of paths) {
    candidates.add(path);
    for (let slash = path.lastIndexOf('/'); slash > 0; slash = path.lastIndexOf('/', slash - 1)) candidates.add(path.slice(0, slash));
  }
  return candidates;
}

/** A relative path `posix.normalize` leaves as it is: segments that are neither empty, `.` nor `..`, no trailing `/`. */
const NORMAL_RELATIVE = /^(?:(?!\.\.?\/)[^/]+\/)*(?!\.\.?$)[^/]+$/;

/** `path` as a workspace-relative path with `/` separators, or undefined when it leaves `cwd` or says nothing. */
function workspacePath(path: string, cwd: string | undefined): string | undefined {
  if (path === '') return undefined;
  // Most paths are already written as the workspace path (`src/a.ts`, or `CWD/src/a.ts`): no normalising needed.
  if (path.charCodeAt(0) !== SLASH) {
    if (NORMAL_RELATIVE.test(path)) return path;
  } else if (
    cwd !== undefined &&
    cwd.length > 1 &&
    path.startsWith(cwd) &&
    path.charCodeAt(cwd.length) === SLASH &&
    isNormalAbsolute(cwd)
  ) {
    const rest = path.slice(cwd.length + 1);
    if (NORMAL_RELATIVE.test(rest)) return rest;
  }
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

const SLASH = 0x2f;

/** The last cwd `isNormalAbsolute` judged (a note asks about one cwd for every path). */
let judged: { cwd: string; normal: boolean } | undefined;

/** An absolute path `path.resolve` leaves as it is (so `relative(cwd, …)` reads it as written). */
function isNormalAbsolute(cwd: string): boolean {
  if (judged?.cwd !== cwd) judged = { cwd, normal: cwd.charCodeAt(0) === SLASH && NORMAL_RELATIVE.test(cwd.slice(1)) };
  return judged.normal;
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
