/**
 * The stable read of `dsh fork FILE` and `dsh repair`: another process appending to FILE between
 * dsh's check of the file and its read (a pause made by the `beforeRead` seam, not a race), or after
 * the read and before dsh writes, is `SOURCE_CHANGED` naming both sizes.
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { promisify } from 'node:util';
import { makeTempDir, type TempDir } from '@dsh/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CliContext } from './cli-context.js';
import { CliError } from './cli-error.js';
import { assertUnchanged } from './native-files.js';
import { DEFAULT_MAX_INPUT_BYTES, readInputBytesStamped, readInputFileStamped } from './read-input-file.js';

const LINE = '{"type":"user","uuid":"u1"}\n';
let dir: TempDir;
let file: string;
const context = (): CliContext => ({
  stdout: new PassThrough(),
  stderr: new PassThrough(),
  stdin: new PassThrough(),
  env: {},
  cwd: dir.path,
});

/** Another process (a real one, as the tool writing its session would be) appends a line to `path`. */
async function appendFromAnotherProcess(path: string): Promise<void> {
  await promisify(execFile)(process.execPath, [
    '-e',
    `require('node:fs').appendFileSync(${JSON.stringify(path)}, ${JSON.stringify(LINE)})`,
  ]);
}

async function refusal(promise: Promise<unknown>): Promise<CliError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof CliError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

beforeEach(async () => {
  dir = await makeTempDir('dsh-stable-read-');
  file = join(dir.path, 'session.jsonl');
  await writeFile(file, LINE);
});
afterEach(async () => {
  await dir.remove();
});

describe('readInputFileStamped', () => {
  it('a stable read of a file that another process appends to before its first byte is read is SOURCE_CHANGED', async () => {
    const error = await refusal(
      readInputFileStamped(context(), file, DEFAULT_MAX_INPUT_BYTES, { stable: true, beforeRead: () => appendFromAnotherProcess(file) }),
    );
    expect(error.code).toBe('SOURCE_CHANGED');
    expect(error.message).toBe(
      `${file} changed while dsh read it (expected ${String(LINE.length)} bytes, found ${String(2 * LINE.length)}): another process is writing to it. Nothing was written.`,
    );
  });

  it('the plain read (import, validate) takes what is there; a stable read of a quiet file returns its text and stamp', async () => {
    const plain = await readInputFileStamped(context(), file, DEFAULT_MAX_INPUT_BYTES, {
      beforeRead: () => appendFromAnotherProcess(file),
    });
    expect(plain.text).toBe(LINE + LINE);
    const stable = await readInputFileStamped(context(), file, DEFAULT_MAX_INPUT_BYTES, { stable: true });
    expect(stable).toMatchObject({ text: LINE + LINE, stamp: { size: 2 * LINE.length } });
  });

  it('a file appended to after the read and before dsh writes is SOURCE_CHANGED at assertUnchanged', async () => {
    const read = await readInputFileStamped(context(), file, DEFAULT_MAX_INPUT_BYTES, { stable: true });
    await expect(assertUnchanged(file, read)).resolves.toBeUndefined();
    await appendFromAnotherProcess(file);
    const error = await refusal(assertUnchanged(file, read));
    expect(error.code).toBe('SOURCE_CHANGED');
    expect(error.message).toContain(`expected ${String(LINE.length)} bytes, found ${String(2 * LINE.length)}`);
  });

  it('reads into the buffer `allocate` gives (the fork scanner reads it there), and past it when the file grew: every byte, in order', async () => {
    const given: Uint8Array[] = [];
    const allocate = (size: number): Uint8Array => {
      const buffer = new Uint8Array(size);
      given.push(buffer);
      return buffer;
    };
    const quiet = await readInputBytesStamped(context(), file, DEFAULT_MAX_INPUT_BYTES, { stable: true, allocate });
    expect(quiet.bytes).toBe(given[0]);
    expect(Buffer.from(quiet.bytes).toString('utf8')).toBe(LINE);
    const grown = await readInputBytesStamped(context(), file, DEFAULT_MAX_INPUT_BYTES, {
      allocate,
      beforeRead: () => appendFromAnotherProcess(file),
    });
    expect(given[1]?.length).toBe(LINE.length);
    expect(Buffer.from(grown.bytes).toString('utf8')).toBe(LINE + LINE);
  });
});
