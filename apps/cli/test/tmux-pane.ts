/**
 * A terminal for tests that drive dsh as a person does: a detached tmux session running one shell
 * command, keys sent with `send-keys`, the screen read with `capture-pane`. The pane stays open after
 * the command exits (it ends in `echo "[exited $?]"; sleep 600`), so the last screen can be read.
 */
import { execFileSync } from 'node:child_process';
import { waitFor } from '@dsh/test-utils';

/** Whether tmux is installed (tests that need it skip without it). */
export const HAS_TMUX = (() => {
  try {
    execFileSync('tmux', ['-V']);
    return true;
  } catch {
    return false;
  }
})();

function tmux(...args: string[]): string {
  return execFileSync('tmux', args, { encoding: 'utf8' });
}

/** One tmux pane running a command. */
export type Pane = {
  /** The visible screen plus 200 lines of scrollback (`escapes`: keep colour codes). */
  screen(escapes?: boolean): string;
  /** Types `keys` literally, presses Enter, and waits (60 s at most) until `until` matches the screen. */
  type(keys: string, until: RegExp): Promise<void>;
  /** Sends one key by tmux name (`C-c`, `Enter`). */
  press(key: string): void;
  /** Pastes the contents of `file` as a terminal does (bracketed, when the program asked for it; line breaks as CR). */
  paste(file: string): void;
  /** Ends the tmux session (and whatever still runs in it). */
  close(): void;
};

let panes = 0;

/**
 * Runs `command` in `sh` inside a 200×60 tmux pane, in `cwd`, with `env` on top of the test's
 * environment minus `DSH_HOME` and `NO_COLOR` (an empty value leaves a variable unset).
 */
export function openPane(command: string, options: { cwd: string; env?: Record<string, string> }): Pane {
  panes += 1;
  const name = `dsh-test-${String(process.pid)}-${String(panes)}-${String(Date.now())}`;
  const entries = Object.entries(options.env ?? {});
  const unset = entries.filter(([, value]) => value === '').map(([key]) => `-u ${key}`);
  const exports = entries
    .filter(([, value]) => value !== '')
    .map(([key, value]) => `${key}='${value.replace(/'/g, `'\\''`)}'`)
    .join(' ');
  const script = `cd '${options.cwd}' && env -u DSH_HOME -u NO_COLOR ${unset.join(' ')} ${exports} ${command}; echo "[exited $?]"; sleep 600`;
  tmux('new-session', '-d', '-s', name, '-x', '200', '-y', '60', script);
  let open = true;
  const screen = (escapes = false) => tmux('capture-pane', '-p', ...(escapes ? ['-e'] : []), '-S', '-200', '-t', name);
  return {
    screen,
    async type(keys, until) {
      tmux('send-keys', '-t', name, '-l', keys);
      tmux('send-keys', '-t', name, 'Enter');
      await waitFor(`${until.source} on screen after '${keys}'\n${screen()}`, () => until.test(screen()), 60_000);
    },
    press(key) {
      tmux('send-keys', '-t', name, key);
    },
    paste(file) {
      tmux('load-buffer', '-b', name, file);
      tmux('paste-buffer', '-p', '-d', '-b', name, '-t', name);
    },
    close() {
      if (!open) return;
      open = false;
      execFileSync('tmux', ['kill-session', '-t', name]);
    },
  };
}
