/**
 * @module `referencedSegments`: every segment a file at the top of a JSONL directory names in its
 * header line — session logs (manifests), their backups, and temp files of writers (a rewrite names
 * what the log it replaces names). The collector keeps all of them.
 */
import { open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { errorCode } from '../durable-files.js';
import { BACKUP_NAME } from '../log-backups.js';
import { SESSION_TEMP_NAME } from '../session-temp-name.js';
import { SessionError } from '../../session-error.js';
import { SEGMENT_DIGEST } from './segment-paths.js';

/** The piece a header line is read in. */
const HEADER_CHUNK = 64 * 1024;
/** The longest header line read: past it a log names too many segments to be a dsh manifest. */
const MAX_HEADER = 64 * 1024 * 1024;

/**
 * The digests every manifest, backup or writer's temp file in `dir` names. A session log whose header
 * cannot be read, or names segments in another shape, is `CORRUPT`: what it needs is unknown, so the
 * caller collects nothing. Backups and temp files that cannot be read name nothing (a temp file being
 * written names only what the file it replaces names).
 */
export async function referencedSegments(dir: string): Promise<Set<string>> {
  const referenced = new Set<string>();
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const { name } = entry;
    if (!entry.isFile()) continue;
    const isLog = name.endsWith('.jsonl');
    if (!isLog && !BACKUP_NAME.test(name) && !name.endsWith('.jsonl.bak') && !SESSION_TEMP_NAME.test(name)) continue;
    const digests = namedDigests(await readHeaderLine(join(dir, name)));
    if (digests === undefined) {
      if (!isLog) continue;
      throw new SessionError(
        'CORRUPT',
        `Cannot tell which segments ${join(dir, name)} names: expected a JSON header line whose segments are { digest, bytes, lines } objects. No segment is collected.`,
      );
    }
    for (const digest of digests) referenced.add(digest);
  }
  return referenced;
}

/** The digests a header line names (none when it names no segments), or undefined when it is not a readable header. */
function namedDigests(line: string | undefined): string[] | undefined {
  if (line === undefined) return [];
  let header: unknown;
  try {
    header = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof header !== 'object' || header === null) return undefined;
  const { segments } = header as { segments?: unknown };
  if (segments === undefined) return [];
  if (!Array.isArray(segments)) return undefined;
  const digests: string[] = [];
  for (const segment of segments as unknown[]) {
    const digest = typeof segment === 'object' && segment !== null ? (segment as { digest?: unknown }).digest : undefined;
    if (typeof digest !== 'string' || !SEGMENT_DIGEST.test(digest)) return undefined;
    digests.push(digest);
  }
  return digests;
}

/** The first line of a file (without its line feed; the whole file when it has none), or undefined when it vanished or is empty. */
async function readHeaderLine(path: string): Promise<string | undefined> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const pieces: Buffer[] = [];
    let length = 0;
    while (length < MAX_HEADER) {
      const piece = Buffer.allocUnsafe(HEADER_CHUNK);
      const { bytesRead } = await handle.read(piece, 0, piece.length, length);
      if (bytesRead === 0) break;
      const end = piece.subarray(0, bytesRead).indexOf(0x0a);
      pieces.push(piece.subarray(0, end === -1 ? bytesRead : end));
      length += bytesRead;
      if (end !== -1) break;
    }
    return length === 0 ? undefined : Buffer.concat(pieces).toString('utf8');
  } finally {
    await handle.close();
  }
}
