/**
 * @module claude-project-key
 * `claudeProjectKey(dir)`: the `projectKey` the Claude Agent SDK gives the sessions of a working
 * directory when a `sessionStore` is set (`query({ options: { cwd, sessionStore } })`, `listSessions({
 * dir, sessionStore })`), so code that reads or forks those sessions in dsh names the same key. The
 * rule, as the pinned SDK (0.3.333) applies it: the directory resolved and its symlinks followed
 * (NFC-normalised on macOS); every UTF-16 code unit that is not an ASCII letter or digit becomes `-`;
 * a key longer than 200 characters keeps its first 200 and gets `-` and the base-36 of the absolute
 * 32-bit string hash of the path (`h = h * 31 + code unit`). With `CLAUDE_CONFIG_DIR` set, a valid
 * `CLAUDE_CODE_PROJECT_DIR_NAME` (1–64 of `A-Z a-z 0-9 _ -`, not a Windows device name) is the key instead.
 */
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';

const MAX_KEY = 200;
const OVERRIDE = /^[A-Za-z0-9_-]{1,64}$/;
const DEVICE_NAME = /^(?:con|prn|aux|nul|com[0-9]|lpt[0-9])$/i;

/** The physical path of `dir` as the SDK reads it: resolved from the process's cwd, symlinks followed when it exists. */
function physical(dir: string): string {
  const resolved = resolve(dir);
  let path: string;
  try {
    path = realpathSync(resolved);
  } catch {
    path = resolved;
  }
  return process.platform === 'darwin' ? path.normalize('NFC') : path;
}

/** The 32-bit string hash the SDK suffixes a long key with (the same under Node and Bun). */
function stringHash(text: string): number {
  let hash = 0;
  for (let index = 0; index < text.length; index++) hash = ((hash << 5) - hash + text.charCodeAt(index)) | 0;
  return hash;
}

/**
 * The SDK's `projectKey` for sessions run in `dir` (default: the process's cwd). `env` is what the
 * SDK reads the override from: pass the `env` you give `query()`'s options, else `process.env` is read.
 */
export function claudeProjectKey(dir = '.', env: Readonly<Record<string, string | undefined>> = process.env): string {
  const name = env.CLAUDE_CODE_PROJECT_DIR_NAME;
  if (env.CLAUDE_CONFIG_DIR && name !== undefined && OVERRIDE.test(name) && !DEVICE_NAME.test(name)) return name;
  const path = physical(dir);
  const key = path.replace(/[^a-zA-Z0-9]/g, '-');
  if (key.length <= MAX_KEY) return key;
  return `${key.slice(0, MAX_KEY)}-${Math.abs(stringHash(path)).toString(36)}`;
}
