/**
 * @module `JsonlResumePoint`: what a JSONL writer knew of its log when it released it cleanly, and the
 * check — without reading the history — that the log is still exactly so when a writer takes it again:
 * the same file (device and inode: a takeover or rewrite makes a new one), the same size and change
 * times (any write, truncation or link changes them), and the same last bytes. When another writer
 * only appended since (`appendedSince`), just the bytes it added are read.
 */
import type { FileHandle } from 'node:fs/promises';
import type { Manifest } from './jsonl-manifest.js';
import type { LineEnds } from './line-ends.js';
import type { ResumePoint } from '../fast-backend.js';

/** How many of the log's last bytes a point keeps, to compare them again. */
const TAIL_BYTES = 4096;

/** The writer state a point carries over (see `makeJsonlWriter`). */
export type JsonlWriterState = {
  size: number;
  lines: number;
  ends: LineEnds;
  crc: number;
  base: number;
  manifest: Manifest | undefined;
};

type FileIdentity = { dev: bigint; ino: bigint; size: bigint; mtimeNs: bigint; ctimeNs: bigint };

async function identityOf(handle: FileHandle): Promise<FileIdentity> {
  const { dev, ino, size, mtimeNs, ctimeNs } = await handle.stat({ bigint: true });
  return { dev, ino, size, mtimeNs, ctimeNs };
}

async function tailOf(handle: FileHandle, size: number): Promise<Buffer> {
  const length = Math.min(TAIL_BYTES, size);
  const tail = Buffer.alloc(length);
  const { bytesRead } = await handle.read(tail, 0, length, size - length);
  return tail.subarray(0, bytesRead);
}

/** A clean release's view of one log file; only a JSONL writer makes one (`capture`), only one of the same file takes it up. */
export class JsonlResumePoint implements ResumePoint {
  readonly backend = 'jsonl';
  readonly path: string;
  readonly state: JsonlWriterState;
  readonly #identity: FileIdentity;
  readonly #tail: Buffer;

  private constructor(path: string, state: JsonlWriterState, identity: FileIdentity, tail: Buffer) {
    this.path = path;
    this.state = state;
    this.#identity = identity;
    this.#tail = tail;
  }

  /** The point of the log at `path` open as `handle`, whose writer state is `state` (its bytes all durable). */
  static async capture(path: string, handle: FileHandle, state: JsonlWriterState): Promise<JsonlResumePoint | undefined> {
    const identity = await identityOf(handle);
    if (identity.size !== BigInt(state.size)) return undefined;
    return new JsonlResumePoint(path, { ...state }, identity, await tailOf(handle, state.size));
  }

  /** The file's change time when the point was taken. */
  get ctimeNs(): bigint {
    return this.#identity.ctimeNs;
  }

  /** Whether the file open as `handle` is still the one this point describes, unchanged (a stat and one small read). */
  async matches(handle: FileHandle): Promise<boolean> {
    const now = await identityOf(handle);
    const then = this.#identity;
    if (now.dev !== then.dev || now.ino !== then.ino || now.size !== then.size) return false;
    if (now.mtimeNs !== then.mtimeNs || now.ctimeNs !== then.ctimeNs) return false;
    return (await tailOf(handle, this.state.size)).equals(this.#tail);
  }

  /**
   * The bytes another writer appended to the same file since this point, with the point's last bytes
   * still in place before them (one read of the last 4 KiB and what follows), and the file's change
   * time; undefined when the file is another one, no longer or shorter, or those bytes changed. Whether
   * the bytes before are all unchanged is the caller's check (a verified stamp written for the file as
   * it is now — the same change time — whose CRC covers them and the new ones).
   */
  async appendedSince(handle: FileHandle): Promise<{ bytes: Buffer; ctimeNs: bigint } | undefined> {
    const now = await identityOf(handle);
    const then = this.#identity;
    if (now.dev !== then.dev || now.ino !== then.ino || now.size <= then.size) return undefined;
    const old = this.state.size;
    const before = this.#tail.length;
    const bytes = Buffer.allocUnsafe(Number(now.size) - old + before);
    for (let offset = 0; offset < bytes.length;) {
      const { bytesRead } = await handle.read(bytes, offset, bytes.length - offset, old - before + offset);
      if (bytesRead === 0) return undefined;
      offset += bytesRead;
    }
    return bytes.subarray(0, before).equals(this.#tail) ? { bytes: bytes.subarray(before), ctimeNs: now.ctimeNs } : undefined;
  }
}
