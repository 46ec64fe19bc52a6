/**
 * @module `sealHeldLines`: a writer seals its session's own lines as one segment and rewrites its file
 * as a manifest naming it (temp + fsync + rename, under the session's lease it holds), once they reach
 * `SEAL_AT_BYTES` or when it releases the session. A fork of the session then names the segments and
 * copies at most the lines written since; a fork never writes its parent (SPEC §5.2). The session's
 * events do not change: the new manifest stands for the same log.
 * docs/decisions/2026-12-07-jsonl-forks-by-reference.md ("a segment per sealed prefix").
 */
import { rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { CURRENT_FORMAT_VERSION, encodeHeader, type SessionHeader } from 'dsh-codec';
import { syncDirectory, writeFileDurably } from './durable-files.js';
import { manifestOf, type Manifest } from './jsonl-manifest.js';
import { NEWLINE } from './jsonl-log-bytes.js';
import type { JsonlState } from './jsonl-state.js';
import { readSummaryFile, removeSummaryFile, writeSummaryFile } from './jsonl-summary-file.js';
import { publishSegment } from './segments/publish-segment.js';
import { shareSegmentsLease } from './segments/segments-lease.js';
import { sessionTempName } from './session-temp-name.js';

/** Own lines below this many bytes stay in the file while the writer holds the session (a fork copies them). */
export const SEAL_AT_BYTES = 1 << 20;

/**
 * Seals the own lines of `bytes` (the session's whole durable file: a current header, then complete
 * lines) and publishes the manifest naming them at `path`. `stillHeld` is the writer's fencing check,
 * asked before the rename. Returns the new file's bytes and manifest, or undefined when there is
 * nothing to seal or the header is not current. Storage failures are thrown; the file is then as it was.
 */
export async function sealHeldLines(
  state: JsonlState,
  id: string,
  path: string,
  bytes: Buffer,
  stillHeld: () => Promise<void>,
): Promise<{ bytes: Buffer; manifest: Manifest } | undefined> {
  const { dir } = state;
  const headerEnd = bytes.indexOf(NEWLINE) + 1;
  if (headerEnd === 0 || headerEnd === bytes.length || bytes[bytes.length - 1] !== NEWLINE) return undefined;
  let header: SessionHeader;
  try {
    header = JSON.parse(bytes.toString('utf8', 0, headerEnd - 1)) as SessionHeader;
  } catch {
    return undefined;
  }
  if ((header as { version: unknown }).version !== CURRENT_FORMAT_VERSION) return undefined;
  const temp = join(dir, sessionTempName(id));
  const lease = await shareSegmentsLease(state.segments);
  let after: Buffer;
  try {
    const segment = await publishSegment(state.segments, lease, bytes.subarray(headerEnd));
    after = Buffer.from(encodeHeader({ ...header, segments: [...(header.segments ?? []), segment] }), 'utf8');
    await writeFileDurably(temp, after, state.write);
    await stillHeld();
    await rename(temp, path);
    await syncDirectory(dir);
  } finally {
    await unlink(temp).catch(() => undefined);
    await lease.release();
  }
  // The summary described the old bytes: it follows the new file when it held (its events are the same).
  const summary = await readSummaryFile(dir, id);
  if (summary !== undefined && summary.header === bytes.toString('utf8', 0, headerEnd - 1) && summary.size === bytes.length) {
    await writeSummaryFile(dir, id, { ...summary, header: after.toString('utf8', 0, after.length - 1), size: after.length });
  } else await removeSummaryFile(dir, id);
  const manifest = manifestOf(after);
  return manifest === undefined ? undefined : { bytes: after, manifest };
}
