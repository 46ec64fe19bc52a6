/**
 * Interactive mode as a person uses it: the real bin in a tmux pane, keys sent with `send-keys`,
 * the screen read with `capture-pane`.
 */
import { execFileSync } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, waitFor, type TempDir } from '@dsh/test-utils';
import { DSH_BIN } from './run-dsh.js';

const hasTmux = (() => {
  try {
    execFileSync('tmux', ['-V']);
    return true;
  } catch {
    return false;
  }
})();

let data: TempDir;
let pane = '';
beforeEach(async () => {
  data = await makeTempDir('dsh-cli-interactive-');
});
afterEach(async () => {
  if (pane !== '') execFileSync('tmux', ['kill-session', '-t', pane]);
  pane = '';
  await data.remove();
});

function tmux(...args: string[]): string {
  return execFileSync('tmux', args, { encoding: 'utf8' });
}

/** Starts `dsh ARGS` in a fresh tmux session; the pane stays open after dsh exits so its last screen can be read. */
function start(args: string[], env: Record<string, string> = {}): void {
  pane = `dsh-test-${String(process.pid)}-${String(Date.now())}`;
  const exports = Object.entries({ NO_COLOR: '1', ...env })
    .filter(([, value]) => value !== '')
    .map(([key, value]) => `${key}=${value}`)
    .join(' ');
  const command = `cd ${data.path} && env -u DSH_HOME -u NO_COLOR ${exports} ${process.execPath} ${DSH_BIN} ${args.join(' ')}; echo "[exited $?]"; sleep 600`;
  tmux('new-session', '-d', '-s', pane, '-x', '200', '-y', '60', command);
}

function screen(escapes = false): string {
  return tmux('capture-pane', '-p', ...(escapes ? ['-e'] : []), '-S', '-200', '-t', pane);
}

async function type(keys: string, until: RegExp): Promise<void> {
  tmux('send-keys', '-t', pane, '-l', keys);
  tmux('send-keys', '-t', pane, 'Enter');
  await waitFor(`${until.source} on screen after '${keys}'\n${screen()}`, () => until.test(screen()), 60_000);
}

describe.skipIf(!hasTmux)('dsh interactive mode in a terminal', () => {
  it('talks to the keyless model, /branch, /fork 7, /tree, quits with Ctrl-C twice, then --resume the branch', { timeout: 300_000 }, async () => {
    start(['--data', 'sessions']);
    await waitFor(`the prompt\n${screen()}`, () => screen().includes('Type a message'), 60_000);
    await type('list files', /turn 1 completed/);
    expect(screen()).toMatch(/\[\d+\] ⚙ list_files \(read-only\)/);
    await type('/branch side', /now in branch \S+ {2}"side"/);
    await type('/fork 7 exact', /forked \S+ at seq 7 .*\n.*now in fork \S+ {2}"exact"/);
    await type('/tree', /└─ exact .*@7.*\*/);
    expect(screen()).toMatch(/└─ side .*@\d+/);
    tmux('send-keys', '-t', pane, 'C-c');
    await waitFor('the first Ctrl-C notice', () => screen().includes('Ctrl-C again'));
    tmux('send-keys', '-t', pane, 'C-c');
    await waitFor(`dsh to exit\n${screen()}`, () => screen().includes('[exited 0]'));
    expect(screen(true)).not.toContain('\u001B[2m');
    tmux('kill-session', '-t', pane);

    start(['--resume', 'side', '--data', 'sessions'], { NO_COLOR: '' });
    await waitFor(`the resumed branch\n${screen()}`, () => /session \S+ {2}"side"/.test(screen()), 60_000);
    await type('hello', /turn 2 completed/);
    // On a terminal without NO_COLOR, seqs are dimmed.
    expect(screen(true)).toContain('\u001B[2m');
    await type('/events', /user\/message +hello/);
    await type('/exit', /\[exited 0\]/);
  });
});
