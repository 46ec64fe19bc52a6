/**
 * @module interactive-session
 * What interactive mode's modules share, passed to each explicitly: the host and the terminal, the
 * session being talked to (`current`, which `/branch`, `/fork` and `/resume` change) and the flags of
 * the running turn, Ctrl-C and the `/resume` picker.
 */
import type { Host } from 'dsh-host/core';
import type { CliContext } from '../cli-context.js';
import type { OptionValues } from '../parse-command-line.js';
import type { Paint } from './interactive-output.js';
import type { PickerEntry } from './resume-picker.js';
import type { TerminalInput } from './terminal-input.js';
import type { TerminalPrinter } from './terminal-printer.js';

/** The state of one interactive run. */
export type InteractiveSession = {
  readonly context: CliContext;
  readonly values: OptionValues;
  readonly host: Host;
  readonly paint: Paint;
  readonly printer: TerminalPrinter;
  readonly terminal: TerminalInput;
  /** Writes one line to stdout. */
  readonly out: (line: string) => void;
  /** The session typed lines go to. */
  current: string;
  /** A turn is running (lines typed now are held back). */
  running: boolean;
  /** One Ctrl-C was pressed: the next one exits. */
  armed: boolean;
  /** The `/resume` picker's entries while a number may pick one. */
  picking: PickerEntry[] | undefined;
  /** Resolves the running turn's wait when `/branch` switches sessions during it. */
  switched: () => void;
};

/** The part of the state a heading needs (available before the terminal is taken over). */
export type SessionView = Pick<InteractiveSession, 'host' | 'paint' | 'out' | 'current'>;
