/**
 * @module How the JSONL backend writes a new log (create, fork): the header, the inherited lines — copied
 * as bytes from a source file this backend holds, or taken from text the store validated — then the
 * other events, into a new file that is fsynced before it is published. The provenance this backend
 * mints for its reads and held sessions says which (only this module reads it).
 */
import type { FileHandle } from 'node:fs/promises';
import { open } from 'node:fs/promises';
import { crc32 } from 'node:zlib';
import { encodeHeader, type SealedSegment, type SessionEvent, type SessionHeader } from 'dsh-codec';
import { encodeLog, NEWLINE, serializeEvents } from './jsonl-log-bytes.js';
import { segmentsAt, segmentsUpTo, type Manifest } from './jsonl-manifest.js';
import type { SegmentedJsonlLog } from './segmented-jsonl-log.js';
import type { JsonlState } from './jsonl-state.js';
import { LineEnds } from './line-ends.js';
import type { SegmentsLease } from './segments/segments-lease.js';
import type { InheritedRecords } from '../fast-backend.js';
import { provenanceKind, type Provenance } from '../provenance.js';

/** No bytes. */
export const EMPTY = Buffer.alloc(0);
/** The largest piece of a stored range copied at once. */
const COPY_CHUNK = 4 * 1024 * 1024;

/**
 * Where a held session's first events lie in its file: `ends` holds the offset after each line (the
 * header's first), `size` the writer's durable size and `writing` whether a batch is being written.
 */
export type StoredRange = {
  handle: FileHandle;
  start: number;
  end: number;
  ends: LineEnds;
  count: number;
  size: number;
  writing: boolean;
  /** The manifest the held file is, when its first `manifest.lines` events lie in segments; `events` = those + `count`. */
  manifest?: Manifest | undefined;
  events?: number;
};

/**
 * A new log to write: the header (or the whole encoded log), inherited lines, the other events. A
 * child by reference names `segments` in its header (its first events) and copies only the inherited
 * lines after them (`bytes`).
 */
export type CreatePlan = {
  head: Buffer;
  inherited?: { bytes: Buffer; ends: LineEnds; segments?: SealedSegment[] } | { range: StoredRange };
  rest: Buffer;
};

/** How many event lines a plan's segments hold (they are not in its file). */
export function segmentLinesOf(plan: CreatePlan): number {
  const segments = plan.inherited !== undefined && 'bytes' in plan.inherited ? plan.inherited.segments : undefined;
  return segments?.reduce((total, segment) => total + segment.lines, 0) ?? 0;
}

/**
 * Whether a held session's file still is what its writer wrote: a size other than the durable size
 * (or more, while a batch is being written) means it was changed behind the lease.
 */
async function storedRangeIsIntact(range: StoredRange): Promise<boolean> {
  const { size } = await range.handle.stat();
  return size === range.size || (range.writing && size > range.size);
}

/** Fills `bytes` from `position` of an open file. */
async function readExactly(handle: FileHandle, bytes: Buffer, position: number): Promise<void> {
  let offset = 0;
  while (offset < bytes.length) {
    const { bytesRead } = await handle.read(bytes, offset, bytes.length - offset, position + offset);
    if (bytesRead === 0)
      throw new Error(`expected ${String(bytes.length)} bytes at offset ${String(position)}, the file ended after ${String(offset)}`);
    offset += bytesRead;
  }
}

/** The line ends and size of a planned log (a copied range shares its source's line ends). */
export function lineEndsOf(plan: CreatePlan): { ends: LineEnds; size: number } {
  let size = plan.head.length;
  let ends: LineEnds;
  if (plan.inherited !== undefined && 'range' in plan.inherited) {
    const { range } = plan.inherited;
    ends = LineEnds.inheriting(size, range.ends, range.count, size - range.start);
    size += range.end - range.start;
  } else {
    if (plan.inherited === undefined) {
      ends = new LineEnds();
      ends.scan(plan.head, 0);
    } else {
      // The inherited lines were scanned once when planned: their ends are shared, shifted by the header.
      ends = LineEnds.inheriting(size, plan.inherited.ends, plan.inherited.ends.length - 1, size);
      size += plan.inherited.bytes.length;
    }
  }
  ends.scan(plan.rest, size);
  return { ends, size: size + plan.rest.length };
}

/** How a new log is written: the header, then the inherited lines (copied as bytes), then the other events. */
type InheritedPart = NonNullable<CreatePlan['inherited']>;

/**
 * What this backend's provenance holds: how the first `count` events of the read (or the held
 * session) it was minted for are written into a child without encoding them, or undefined when they
 * cannot be (then they are encoded).
 */
type JsonlOrigin = (count: number, segmentsLease: SegmentsLease | undefined) => Promise<InheritedPart | undefined>;

const JSONL_PROVENANCE = provenanceKind<JsonlOrigin>();

/** The inherited lines as bytes, scanned once, when they are exactly `count` LF-terminated lines. */
function copiedLines(bytes: Buffer | undefined, count: number): InheritedPart | undefined {
  if (bytes === undefined) return undefined;
  // Line 0 stands for the header: line i is inherited event i - 1, as in a stored range.
  const ends = LineEnds.after(0);
  ends.scan(bytes, 0);
  if ((bytes.length > 0 && bytes[bytes.length - 1] !== NEWLINE) || ends.length !== count + 1) return undefined;
  return { bytes, ends };
}

/** The durable lines of a session a writer of this backend holds, when its file is still what the writer wrote. */
async function heldRange(
  state: JsonlState,
  id: string,
  count: number,
  segmentsLease: SegmentsLease | undefined,
): Promise<InheritedPart | undefined> {
  const range = state.storedRanges.get(id)?.(count);
  // A source released, rewritten or changed behind its lease is not copied: its events are encoded.
  if (range === undefined || !(await storedRangeIsIntact(range).catch(() => false))) return undefined;
  const { manifest } = range;
  if (manifest === undefined) return { range };
  // A held manifest: the child names the segments up to the cut and copies the file's lines after them.
  if (segmentsLease === undefined) return undefined;
  // Only the segment holding the cut is read (to find its line's end); the others are named as they are.
  const segments = await segmentsAt(state.segments, manifest, Math.min(count, manifest.lines));
  const own = Buffer.allocUnsafe(range.end - range.start);
  await readExactly(range.handle, own, range.start);
  const rest = copiedLines(own, range.count);
  return rest === undefined || !('bytes' in rest) ? undefined : { ...rest, segments };
}

/** Where a read came from: the manifest its file is, if any. */
export type ReadSource = { manifest: Manifest | undefined };

/**
 * The provenance of a read of this backend: a child refers to the segments holding its first events
 * and copies only the lines after them, from the bytes read (`currentLines`: only lines the store
 * validated, in the current format and LF). Without the segment folder's lease it copies them all.
 */
export function provenanceOfRead(log: { currentLines(count: number): Buffer | undefined }, source: ReadSource): Provenance {
  return JSONL_PROVENANCE.mint((count, segmentsLease) =>
    Promise.resolve(referencedLines(log.currentLines(count), count, source, segmentsLease)),
  );
}

/** The first `count` event lines of a read as an inherited part: the segments holding them, then the lines after them. */
function referencedLines(
  lines: Buffer | undefined,
  count: number,
  source: ReadSource,
  segmentsLease: SegmentsLease | undefined,
): InheritedPart | undefined {
  if (lines === undefined || segmentsLease === undefined) return copiedLines(lines, count);
  const { manifest } = source;
  if (manifest === undefined) return copiedLines(lines, count);
  const inSegments = Math.min(count, manifest.lines);
  const segments = segmentsUpTo(manifest, inSegments, lines);
  if (segments === undefined) return copiedLines(lines, count);
  const skipped = segments.reduce((total, segment) => total + segment.bytes, 0);
  const rest = copiedLines(lines.subarray(skipped), count - inSegments);
  return rest === undefined || !('bytes' in rest) ? undefined : { ...rest, segments };
}

/**
 * The provenance of a verified manifest read lazily (`SegmentedJsonlLog`): a child names the segments
 * before its cut, cuts the one holding it (reading that one only) and copies the own lines up to it.
 * Without the segment folder's lease its events are encoded.
 */
export function provenanceOfSegmented(log: SegmentedJsonlLog, id: string): Provenance {
  return JSONL_PROVENANCE.mint((count, segmentsLease) =>
    Promise.resolve(segmentsLease === undefined ? undefined : log.referenced(id, count)),
  );
}

/** The provenance of session `id` as a writer of this backend holds it: a child copies its durable lines from its file. */
export function provenanceOfHeld(state: JsonlState, id: string): Provenance {
  return JSONL_PROVENANCE.mint((count, segmentsLease) => heldRange(state, id, count, segmentsLease));
}

/** Whether `provenance` is this backend's: a create from it may name segments, and holds the segment folder's lease. */
export function isJsonlProvenance(provenance: Provenance | undefined): boolean {
  return JSONL_PROVENANCE.read(provenance) !== undefined;
}

/**
 * How a new log is written: the header, then the inherited lines — copied from the bytes the source
 * was read from, or from the source's durable file held here, as its provenance says — when
 * possible, then the other events.
 */
export async function planCreated(
  state: JsonlState,
  header: SessionHeader,
  events: readonly SessionEvent[],
  inherited: InheritedRecords | undefined,
  segmentsLease?: SegmentsLease,
): Promise<CreatePlan> {
  const count = inherited?.count ?? 0;
  const encoded = (): CreatePlan => ({
    head: encodeLog(header, inherited === undefined ? events : [...inherited.events(), ...events]),
    rest: EMPTY,
  });
  // No provenance of this backend (a read of none, a public backend's records): the events are encoded.
  const origin = JSONL_PROVENANCE.read(inherited?.provenance);
  const part = origin === undefined || count <= 0 ? undefined : await origin(count, segmentsLease);
  if (part === undefined) return encoded();
  const segments = 'bytes' in part ? part.segments : undefined;
  const head = encodeHeader(segments === undefined || segments.length === 0 ? header : { ...header, segments });
  return { head: Buffer.from(head, 'utf8'), inherited: part, rest: Buffer.from(serializeEvents(events), 'utf8') };
}

/** Below this size the header and the other events are written as one buffer (one write instead of two). */
const JOIN_BELOW = 1 << 20;

/**
 * Writes a planned log to a new file and fsyncs it; copies a stored range through the spare buffer.
 * Returns the file, still open for reading and writing (the writer keeps it: the same inode once
 * published), and the CRC-32 of the bytes written (the writer's running checksum,
 * `jsonl-verified-stamp.ts`). The file is closed when writing fails.
 */
export async function writeCreated(state: JsonlState, path: string, plan: CreatePlan): Promise<{ handle: FileHandle; crc: number }> {
  const { write } = state;
  const handle = await open(path, 'wx+');
  try {
    if (plan.inherited === undefined && plan.rest.length > 0 && plan.head.length + plan.rest.length < JOIN_BELOW) {
      plan = { head: Buffer.concat([plan.head, plan.rest]), rest: EMPTY };
    }
    let position = 0;
    await write(handle, plan.head, position);
    let crc = crc32(plan.head);
    position += plan.head.length;
    if (plan.inherited !== undefined && 'bytes' in plan.inherited) {
      await write(handle, plan.inherited.bytes, position);
      crc = crc32(plan.inherited.bytes, crc);
      position += plan.inherited.bytes.length;
    } else if (plan.inherited !== undefined) {
      const { range } = plan.inherited;
      const total = range.end - range.start;
      let buffer = state.spareCopyBuffer;
      state.spareCopyBuffer = undefined;
      if (buffer === undefined || buffer.length < Math.min(total, COPY_CHUNK))
        buffer = Buffer.allocUnsafe(Math.min(Math.max(total, 1 << 16), COPY_CHUNK));
      try {
        for (let offset = 0; offset < total;) {
          const chunk = buffer.subarray(0, Math.min(buffer.length, total - offset));
          await readExactly(range.handle, chunk, range.start + offset);
          if (offset + chunk.length === total && chunk[chunk.length - 1] !== NEWLINE)
            throw new Error('the copied lines do not end with a newline');
          await write(handle, chunk, position);
          crc = crc32(chunk, crc);
          position += chunk.length;
          offset += chunk.length;
        }
      } finally {
        state.spareCopyBuffer = buffer;
      }
    }
    if (plan.rest.length > 0) await write(handle, plan.rest, position);
    crc = crc32(plan.rest, crc);
    await handle.sync();
    return { handle, crc };
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
}
