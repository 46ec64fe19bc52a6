/**
 * `repairNativeTranscript` (SPEC §18 `dsh repair`): a session file whose main line ends with calls
 * that have no result gets dsh's *interrupted* closers appended in the tool's own format — the same
 * text the store's crash repair writes. A file with nothing open needs nothing.
 */
import type { TranscriptFormat } from '../detect-format.js';
import { codexCallKind } from './codex-native.js';
import { eventsOfLines } from './native-cut.js';
import { joinNativeLines, splitNativeLines, type NativeLine } from './native-line.js';
import { nativeFormatOf } from './native-formats.js';
import { closerText, openCallsAt, type OpenCall } from './open-calls.js';

/** What repair found: the calls it closed and the lines to append (empty when nothing was open). */
export type NativeRepair = { format: TranscriptFormat; sessionId: string | undefined; closedCalls: OpenCall[]; appended: string };

/** Computes the closers to append to `text`; `appended` is `''` when nothing is open. */
export function repairNativeTranscript(text: string, options: { format?: 'auto' | TranscriptFormat; now: number }): NativeRepair {
  const lines = splitNativeLines(text);
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
  // A torn last line would swallow the first appended line: start on a fresh line.
  const separator = raws.length > 0 && text !== '' && !text.endsWith('\n') ? '\n' : '';
  return { format: format.format, sessionId, closedCalls, appended: separator + joinNativeLines(raws) };
}
