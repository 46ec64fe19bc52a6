/**
 * The verified stamp of a JSONL log (`<dir>/.verified/<id>`): the size and CRC-32 of the bytes a
 * writer of this store left when it released the log, written only when every one of those bytes is
 * a line it validated (appended from a Session, copied from validated lines, or decoded by the codec
 * when the log was opened) in the current format with LF line ends. A read whose bytes have that size
 * and checksum may skip decoding them (`verified-lines.ts`) and `open` skips validating them; any change to the file — another program,
 * a truncation, a flipped bit — changes the checksum and the log is decoded and validated in full.
 * A stamp is a cache: writing it is best effort, a lost or stale one only costs that full decode.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';

/** The folder of the stamps, beside the leases. */
export const VERIFIED = '.verified';

/**
 * What a stamp records of the verified bytes; `ctimeNs`, when the writer knew it, is the log file's
 * change time as the writer left it (a later change to the file changes it: `SessionStore.reopen`
 * then reads the log whole).
 */
export type VerifiedStamp = { size: number; crc32: number; ctimeNs?: bigint };

function stampPath(dir: string, id: string): string {
  return join(dir, VERIFIED, id);
}

/** Records that the log's current bytes (`size`, `crc`) are verified; never throws (a stamp is a cache). */
export async function writeVerifiedStamp(dir: string, id: string, stamp: VerifiedStamp): Promise<void> {
  const path = stampPath(dir, id);
  const temp = `${path}.${randomUUID()}.tmp`;
  try {
    await mkdir(join(dir, VERIFIED), { recursive: true });
    // `wx`: a planted name (a symlink) is never written through; the stamp is then skipped.
    const changed = stamp.ctimeNs === undefined ? {} : { ctimeNs: String(stamp.ctimeNs) };
    await writeFile(temp, JSON.stringify({ size: stamp.size, crc32: stamp.crc32, ...changed }), { flag: 'wx' });
    await rename(temp, path);
  } catch {
    await unlink(temp).catch(() => undefined);
  }
}

/** The stamp of `id`, or undefined when there is none or it is not a stamp. */
export async function readVerifiedStamp(dir: string, id: string): Promise<VerifiedStamp | undefined> {
  try {
    const value = JSON.parse(await readFile(stampPath(dir, id), 'utf8')) as unknown;
    if (typeof value !== 'object' || value === null) return undefined;
    const { size, crc32: crc, ctimeNs } = value as Record<string, unknown>;
    if (!Number.isSafeInteger(size) || !Number.isSafeInteger(crc)) return undefined;
    const changed = typeof ctimeNs === 'string' && /^[0-9]{1,30}$/.test(ctimeNs) ? { ctimeNs: BigInt(ctimeNs) } : {};
    return { size: size as number, crc32: crc as number, ...changed };
  } catch {
    return undefined;
  }
}

/** Whether `bytes` are exactly the bytes `stamp` vouches for. */
export function matchesStamp(bytes: Buffer, stamp: VerifiedStamp | undefined): boolean {
  return stamp !== undefined && bytes.length === stamp.size && crc32(bytes) === stamp.crc32;
}

/** Forgets the stamp of a deleted log. */
export async function removeVerifiedStamp(dir: string, id: string): Promise<void> {
  await unlink(stampPath(dir, id)).catch(() => undefined);
}

/**
 * Removes stamp temp files a writer left when it died between writing and renaming one. A temp file
 * another process is writing right now may go too: its rename then fails and it writes no stamp.
 */
export async function removeStampTemps(dir: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(join(dir, VERIFIED));
  } catch {
    return;
  }
  for (const name of names) if (name.endsWith('.tmp')) await unlink(join(dir, VERIFIED, name)).catch(() => undefined);
}
