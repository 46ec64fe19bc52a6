/**
 * `NativeFileFork`: a native fork of a file's bytes — the child as `chunks` to write in order (with
 * one gathering write: on the byte path they are views of the file's own bytes, so the child is
 * never copied in memory), and `bytes`, their join, made when first read.
 * @module
 */
import { Buffer } from 'node:buffer';
import type { NativeFork } from './native-fork-types.js';
import { ImportError } from '../import-error.js';

/** A native fork of a file's bytes (what `dsh fork FILE` writes): its facts, and the child as chunks and as bytes. */
export type NativeFileFork = Omit<NativeFork, 'text'> & {
  /** The child's bytes in order: write them with one `writev` (views of the file's bytes on the byte path). */
  chunks: readonly Uint8Array[];
  /** The child's bytes in one buffer: the chunks joined (a copy) when first read; not an own enumerable field. */
  readonly bytes: Uint8Array;
};

/** The fork of `facts` whose child is `chunks`. */
export function nativeFileFork(facts: Omit<NativeFork, 'text'>, chunks: readonly Uint8Array[]): NativeFileFork {
  let joined: Uint8Array | undefined;
  const fork = { ...facts, chunks };
  Object.defineProperty(fork, 'bytes', {
    get: () => (joined ??= chunks.length === 1 ? (chunks[0] as Uint8Array) : Buffer.concat(chunks)),
    enumerable: false,
  });
  return fork as NativeFileFork;
}

/** `INVALID_OPTION` for a fork's `at` that is not a non-empty string (a caller in JavaScript may pass anything). */
export function checkForkAt(at: unknown): void {
  if (typeof at !== 'string' || at === '')
    throw new ImportError(
      'INVALID_OPTION',
      `at: expected the tool's entry id or seq:N, received ${at === '' ? 'an empty string' : String(at)}`,
    );
}
