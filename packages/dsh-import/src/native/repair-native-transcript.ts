/**
 * `repairNativeTranscript` (SPEC §18 `dsh repair`): a session file whose main line ends with calls
 * that have no result gets dsh's *interrupted* closers appended in the tool's own format — the same
 * text the store's crash repair writes. A file with nothing open needs nothing. A torn last line (a
 * tool killed mid-write) is named, to be moved out before the closers (SPEC §26).
 */
import type { TranscriptFormat } from '../detect-format.js';
import { codexCallKind } from './codex-native.js';
import { eventsOfLines } from './cut-events.js';
import { joinNativeLines, jsonObjectOf, splitNativeLines, type NativeLine } from './native-line.js';
import { nativeFormatOf } from './native-formats.js';
import { closerText, openCallsAt, type OpenCall } from './open-calls.js';

/**
 * What repair found: the calls it closed, the lines to append (empty when nothing was open) and the
 * torn last line (`''` when none). The repaired file is `text` without its last `torn.length`
 * characters, then `appended`.
 */
export type NativeRepair = {
  format: TranscriptFormat;
  sessionId: string | undefined;
  closedCalls: OpenCall[];
  appended: string;
  torn: string;
  /** The malformed lines skipped in reading the file (left where they are), each named. */
  warnings: string[];
};

/** The text after the last newline when it is not a whole JSON object (a torn last line), else `''`. */
function tornTail(text: string): string {
  const tail = text.slice(text.lastIndexOf('\n') + 1);
  return tail.trim() !== '' && jsonObjectOf(tail) === undefined ? tail : '';
}

/** Computes the closers to append to `text`; `appended` is `''` when nothing is open; a malformed line is skipped and named in `warnings` (`MALFORMED_LINE` when `strict`). */
export function repairNativeTranscript(
  text: string,
  options: { format?: 'auto' | TranscriptFormat; now: number; strict?: boolean },
): NativeRepair {
  const warnings: string[] = [];
  const lines = splitNativeLines(text, options.strict === true ? undefined : warnings);
  const format = nativeFormatOf(lines, options.format);
  const sessionId = format.sessionIdOf(lines);
  const leaf = format.mainLeaf(lines);
  const chain = leaf < 0 ? [] : format.chainTo(lines, leaf);
  const closedCalls = openCallsAt(eventsOfLines(format, chain));
  const raws: string[] = [];
  let previous = lines[leaf] as NativeLine;
  for (const call of closedCalls) {
    const kind = format.format === 'codex' ? codexCallKind(chain, call.callId) : undefined;
    previous = format.closer(
      {
        callId: call.callId,
        name: call.name,
        text: closerText('interrupted', call),
        isError: true,
        ...(kind === undefined ? {} : { kind }),
      },
      { previous, sessionId: sessionId ?? '', now: options.now, salt: 'repair' },
    );
    raws.push(previous.raw);
  }
  // A torn last line goes (`torn`); a whole one without its newline gets one before the closers.
  const torn = tornTail(text);
  const separator = raws.length > 0 && torn === '' && text !== '' && !text.endsWith('\n') ? '\n' : '';
  return { format: format.format, sessionId, closedCalls, appended: separator + joinNativeLines(raws), torn, warnings };
}
