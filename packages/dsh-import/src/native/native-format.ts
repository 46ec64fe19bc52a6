/**
 * What the native fork, repair and export need from each tool's file format: its entry ids, the
 * chain from the root to an entry, the id fields a new session changes, one result entry, and the
 * file name the tool's own resume finds.
 */
import type { TranscriptFormat } from '../detect-format.js';
import type { NativeLine } from './native-line.js';

/** A result entry dsh appends: the call it answers and the text to store. */
export type CloserInput = { callId: string; name: string; text: string; isError: boolean; kind?: string };

/** What a format writes a closer against: the entry before it and the new session's identity. */
export type CloserContext = { previous: NativeLine; sessionId: string; now: number; salt: string };

/** One tool's session file format, as the native operations see it. */
export type NativeFormat = {
  format: TranscriptFormat;
  /** The source's own session id. */
  sessionIdOf(lines: readonly NativeLine[]): string | undefined;
  /** The entry REF names (its index in `lines`), or undefined; `refs` lists the valid ones for messages. */
  findRef(lines: readonly NativeLine[], ref: string): number | undefined;
  /** The REF that names `line` (what `findRef` takes), or undefined for an entry without one. */
  refOf(line: NativeLine): string | undefined;
  /** The refs to name when a REF is unknown (nearest first when `ref` resembles some). */
  refHint(lines: readonly NativeLine[], ref: string): string;
  /** The lines from the root to `lines[at]`, in file order (pi and Codex: the header included). */
  chainTo(lines: readonly NativeLine[], at: number): NativeLine[];
  /** The index of the entry ending the main line (the newest message), or -1 for none. */
  mainLeaf(lines: readonly NativeLine[]): number;
  /** A copied line with its session id fields set for the child (`parentFile`: pi's parentSession). */
  rewrite(line: NativeLine, context: { from: string; to: string; parentFile: string | undefined; header: boolean }): string;
  /** One result entry after `context.previous`, as a parsed line. */
  closer(input: CloserInput, context: CloserContext): NativeLine;
  /** The child's file name in the tool's layout. */
  fileName(sessionId: string, now: number): string;
  /** The argv that resumes the child with the tool's own command (`file`: the child's path). */
  resume(sessionId: string, file: string): string[];
  /**
   * The id of the response `line` holds blocks of, where a response spans several lines (Claude
   * Code: one line per content block sharing `message.id`); absent for a format that writes one whole.
   */
  responseIdOf?(line: NativeLine): string | undefined;
};

/** ISO time as the tools write it. */
export function isoTime(now: number): string {
  return new Date(now).toISOString();
}
