/**
 * @module `createJsonlLog`: a new session's log in a JSONL directory — the id's lease, a temp file
 * written and fsynced (inherited lines copied as bytes where the plan can), linked to `<id>.jsonl`
 * without overwriting, the directory fsynced — and the writer holding it.
 */
import { stat, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { SessionEvent, SessionHeader } from 'dsh-codec';
import { publishWithoutOverwrite, syncDirectory } from './durable-files.js';
import { acquireFileLease, type FileLease } from './file-lease.js';
import { EMPTY, isJsonlProvenance, lineEndsOf, planCreated, segmentLinesOf, writeCreated, type CreatePlan } from './jsonl-create-plan.js';
import { encodeLog } from './jsonl-log-bytes.js';
import { manifestOf } from './jsonl-manifest.js';
import { fileExists, leasesDir, logFile } from './jsonl-paths.js';
import type { JsonlState } from './jsonl-state.js';
import { makeJsonlWriter } from './jsonl-writer.js';
import { sealCreatedLines, sealsWhenCreated } from './seal-created-lines.js';
import { sessionTempName } from './session-temp-name.js';
import { shareSegmentsLease, type SegmentsLease } from './segments/segments-lease.js';
import { segmentFile } from './segments/segment-paths.js';
import { writeCreatedSummary } from './write-created-summary.js';
import type { FastWriter, InheritedRecords } from '../fast-backend.js';
import { SessionError } from '../session-error.js';
import { existsError, writeFailed } from '../store-errors.js';

/** Creates session `id`'s log holding `header`, the `inherited` prefix and `events`; `SESSION_EXISTS` when the id is taken. */
export async function createJsonlLog(
  state: JsonlState,
  id: string,
  header: SessionHeader,
  events: readonly SessionEvent[],
  inherited: InheritedRecords | undefined,
): Promise<FastWriter> {
  const { dir } = state;
  const path = logFile(dir, id);
  if (await fileExists(path)) throw existsError(id);
  let lease: FileLease;
  try {
    lease = await acquireFileLease(leasesDir(dir), id, state.now);
  } catch (error) {
    // Someone else holds the id: it exists, or is being created right now.
    if (SessionError.is(error) && error.code === 'SESSION_BUSY') throw existsError(id);
    throw error;
  }
  const temp = join(dir, sessionTempName(id));
  // Everything after the lease is taken runs inside this try, so every failure releases it.
  let plan: CreatePlan;
  let created: { handle: FileHandle; crc: number } | undefined;
  // A fork of this backend's read may name segments: held from planning until the manifest is durable,
  // so no collection removes a segment it names in between.
  let segmentsLease: SegmentsLease | undefined;
  try {
    if ((inherited?.count ?? 0) > 0 && isJsonlProvenance(inherited?.provenance)) segmentsLease = await shareSegmentsLease(state.segments);
    // No second `exists` here: the link below never overwrites, so a log published meanwhile is
    // still refused (SESSION_EXISTS). The store asks first only for an id its caller named.
    plan = await planCreated(state, header, events, inherited, segmentsLease);
    if (!(await namedSegmentsExist(state, plan))) {
      plan = { head: encodeLog(header, inherited === undefined ? events : [...inherited.events(), ...events]), rest: EMPTY };
    }
    // A log created whole (a big create or import, or a fork whose prefix was encoded) is sealed as it is written.
    if (sealsWhenCreated(plan)) {
      segmentsLease ??= await shareSegmentsLease(state.segments);
      plan = await sealCreatedLines(state, header, plan, segmentsLease);
    }
    try {
      created = await writeCreated(state, temp, plan);
    } catch (error) {
      if (plan.inherited === undefined || !('range' in plan.inherited)) throw error;
      // The source could not be copied (released or closed meanwhile): encode its events instead.
      await unlink(temp).catch(() => undefined);
      plan = { head: encodeLog(header, inherited === undefined ? events : [...inherited.events(), ...events]), rest: EMPTY };
      created = await writeCreated(state, temp, plan);
    }
    if (!(await publishWithoutOverwrite(temp, path))) throw existsError(id);
    await syncDirectory(dir);
  } catch (error) {
    await created?.handle.close().catch(() => undefined);
    await unlink(temp).catch(() => undefined);
    await lease.release();
    throw SessionError.is(error) ? error : writeFailed(id, 'create', error);
  } finally {
    await segmentsLease?.release();
  }
  // The handle that wrote the file is the published file's (link and rename keep the inode).
  const { handle, crc } = created;
  const { ends, size } = lineEndsOf(plan);
  // Listed from then on without reading the log (`read-jsonl-summary.ts`).
  await writeCreatedSummary(dir, id, header, events, inherited, size, segmentLinesOf(plan) > 0 ? plan.head.toString('utf8') : undefined);
  return makeJsonlWriter(state, id, path, lease, {
    handle,
    size,
    lines: (inherited?.count ?? 0) - segmentLinesOf(plan) + events.length + 1,
    base: segmentLinesOf(plan),
    manifest: segmentLinesOf(plan) > 0 ? manifestOf(plan.head) : undefined,
    ends,
    current: true,
    crc,
    verified: true,
  });
}

/**
 * Whether every segment a plan names is published, holding at least the bytes named (checked under the
 * folder's lease, so no collection removes one before the manifest is durable). Its bytes are not read:
 * a fork names what its source's manifest names, and each reader verifies a segment by digest.
 */
async function namedSegmentsExist(state: JsonlState, plan: CreatePlan): Promise<boolean> {
  const segments = plan.inherited !== undefined && 'bytes' in plan.inherited ? (plan.inherited.segments ?? []) : [];
  for (const segment of segments) {
    const size = await stat(segmentFile(state.dir, segment.digest)).then(
      (info) => (info.isFile() ? info.size : -1),
      () => -1,
    );
    if (size < segment.bytes) return false;
  }
  return true;
}
