// The lease protocol is internal to the JSONL backend; its edge cases are tested on the module.
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionError } from 'dsh-session';
import { makeTempDir, type TempDir } from '@dsh/test-utils';
import { acquireFileLease, fileLeaseHolder } from './file-lease.js';

async function busy(promise: Promise<unknown>): Promise<SessionError> {
  try {
    await promise;
  } catch (error) {
    if (SessionError.is(error) && error.code === 'SESSION_BUSY') return error;
    throw error;
  }
  throw new Error('expected SESSION_BUSY');
}

describe('file lease', () => {
  let dir: TempDir;
  beforeEach(async () => {
    dir = await makeTempDir();
  });
  afterEach(async () => {
    await dir.remove();
  });

  const plant = async (gen: number, record: object | string) => {
    await mkdir(join(dir.path, 's'), { recursive: true });
    await writeFile(join(dir.path, 's', String(gen)), typeof record === 'string' ? record : JSON.stringify(record));
  };

  it('is held by one taker at a time, and free again once released', async () => {
    const lease = await acquireFileLease(dir.path, 's');
    expect(lease.holder).toMatchObject({ pid: process.pid, host: hostname() });
    expect(await fileLeaseHolder(dir.path, 's')).toEqual(lease.holder);
    expect((await busy(acquireFileLease(dir.path, 's'))).holder).toEqual(lease.holder);
    await lease.release();
    expect(await fileLeaseHolder(dir.path, 's')).toBeUndefined();
    const again = await acquireFileLease(dir.path, 's');
    await again.release();
    // Old generations are cleaned up; generations only grow.
    expect((await readdir(join(dir.path, 's'))).map(Number)).toEqual([4]);
  });

  it('lets exactly one of many concurrent takers win', async () => {
    const results = await Promise.allSettled(Array.from({ length: 8 }, () => acquireFileLease(dir.path, 's')));
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    for (const result of results)
      if (result.status === 'rejected') expect(SessionError.is(result.reason) && result.reason.code).toBe('SESSION_BUSY');
  });

  it('takes over a lease whose process is gone, or whose record is unreadable', async () => {
    await plant(1, { pid: 2 ** 22 + 12345, host: hostname(), since: 1, token: 't' });
    const lease = await acquireFileLease(dir.path, 's');
    expect(lease.holder.pid).toBe(process.pid);
    expect((await readdir(join(dir.path, 's'))).map(Number)).toEqual([2]);
    await lease.release();
    await plant(9, '');
    const next = await acquireFileLease(dir.path, 's');
    expect(next.holder.pid).toBe(process.pid);
    await next.release();
  });

  it('treats a holder on another host as alive and names it', async () => {
    await plant(1, { pid: 42, host: 'elsewhere', since: 1_700_000_000_000, token: 't' });
    const error = await busy(acquireFileLease(dir.path, 's'));
    expect(error.holder).toEqual({ pid: 42, host: 'elsewhere', since: 1_700_000_000_000 });
    expect(error.message).toContain('pid 42 on elsewhere since 2023-11-14T22:13:20.000Z');
  });
});
