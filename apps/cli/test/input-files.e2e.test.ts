/**
 * What `validate`, `migrate`, `import`, `fork FILE` and `repair` do with a FILE that is not a session file to read: a FIFO,
 * a device, a directory or a file over the size bound are refused with a code before anything is
 * read (a FIFO once hung `dsh import` forever; /dev/zero was read for 650 MB).
 */
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DSH_BIN, makeTempDir, runDsh, type TempDir } from '@dsh/test-utils';

const V4_LOG = fileURLToPath(new URL('../examples/v4-fork-child.jsonl', import.meta.url));

let dir: TempDir;
beforeEach(async () => {
  dir = await makeTempDir('dsh-cli-inputs-');
});
afterEach(async () => {
  await dir.remove();
});

const COMMANDS = [
  { name: 'validate', args: (file: string) => ['validate', file] },
  { name: 'migrate', args: (file: string) => ['migrate', file] },
  { name: 'migrate --write', args: (file: string) => ['migrate', file, '--write'] },
  { name: 'import', args: (file: string) => ['import', file, '--data', join(dir.path, 'data')] },
  { name: 'fork FILE', args: (file: string) => ['fork', file, '--at', 'seq:0'] },
  { name: 'repair', args: (file: string) => ['repair', file] },
];

describe.each(COMMANDS)('dsh $name FILE', ({ args }) => {
  it('refuses a FIFO with NOT_A_FILE, without waiting for a writer', { timeout: 60_000 }, async () => {
    const fifo = join(dir.path, 'pipe.jsonl');
    execFileSync('mkfifo', [fifo]);
    const result = await runDsh(args(fifo));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`dsh: NOT_A_FILE: ${fifo}: expected a regular file, received a FIFO (named pipe); nothing was read.`);
  });

  it('refuses /dev/zero and a directory with NOT_A_FILE', { timeout: 60_000 }, async () => {
    const zero = await runDsh(args('/dev/zero'));
    expect(zero.code).toBe(1);
    expect(zero.stderr).toContain('dsh: NOT_A_FILE: /dev/zero: expected a regular file, received a character device');
    await mkdir(join(dir.path, 'folder'));
    const folder = await runDsh(args(join(dir.path, 'folder')));
    expect(folder.stderr).toContain('received a directory');
  });

  it('refuses a file over --max-bytes with FILE_TOO_LARGE naming both sizes, and reads one within it', { timeout: 60_000 }, async () => {
    const log = join(dir.path, 'log.jsonl');
    await writeFile(log, 'x'.repeat(200));
    const result = await runDsh([...args(log), '--max-bytes', '100']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `dsh: FILE_TOO_LARGE: ${log}: expected a file of at most 100 bytes (100 B), received a file of 200 bytes (200 B).`,
    );
    expect(result.stderr).toContain('--max-bytes N');
  });
});

describe('the size bound', () => {
  it('is 256 MiB by default and --max-bytes must be a positive number', { timeout: 60_000 }, async () => {
    const ok = await runDsh(['validate', V4_LOG]);
    expect(ok.code).toBe(0);
    // Not a terminal: no progress line on stderr.
    expect(ok.stderr).toBe('');
    const bad = await runDsh(['validate', V4_LOG, '--max-bytes', 'lots']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--max-bytes expects a positive number of bytes, received 'lots'.");
  });
});

const HAS_SCRIPT = (() => {
  try {
    execFileSync('script', ['--version']);
    return true;
  } catch {
    return false;
  }
})();

describe.skipIf(!HAS_SCRIPT)('progress on a terminal', () => {
  it('validate draws a progress line on stderr when it is a terminal, and erases it', { timeout: 60_000 }, async () => {
    // `script` runs dsh on a pseudo-terminal (stdout and stderr both) and relays what it wrote.
    const { stdout } = await promisify(execFile)('script', ['-qec', `${process.execPath} ${DSH_BIN} validate ${V4_LOG}`, '/dev/null'], {
      env: { ...process.env, DSH_HOME: dir.path },
    });
    expect(stdout).toContain(`\rreading ${V4_LOG}: `);
    expect(stdout).toContain('\r\u001B[K');
    expect(stdout).toContain('valid V4 log');
  });
});
