/**
 * `claudeCodeClosers`: the result entries a byte-path child of a Claude Code file ends with, one per
 * call the cut leaves open — Claude Code's own closer entry holding the text dsh's shared closer
 * stores (dsh-codec's wording). Its own module so that a cut with no open call loads neither the
 * format's text-path reading nor the codec's texts: `nativeFileReader` imports it only for a cut
 * that closes calls.
 * @module
 */
import { CLAUDE_CODE_NATIVE } from '../claude-code-native.js';
import type { NativeLine } from '../native-line.js';
import { closerText, type OpenCall } from '../open-calls.js';

/** Who the closers belong to: the child's session id, the fork's time and its REF (the closers' uuids derive from them). */
export type CloserIdentity = { sessionId: string; now: number; at: string };

/** Writes the closer lines for `calls` after `last` (the child's last kept line), each ending in `\n`. */
export type ClaudeCodeClosers = (last: NativeLine, calls: readonly OpenCall[], identity: CloserIdentity) => string;

/** The closer lines of `calls`, each after the one before, the first after `last`; '' for no calls. */
export const claudeCodeClosers: ClaudeCodeClosers = (last, calls, { sessionId, now, at }) => {
  let previous = last;
  let text = '';
  for (const call of calls) {
    previous = CLAUDE_CODE_NATIVE.closer(
      { callId: call.callId, name: call.name, text: closerText('forked', call), isError: true },
      { previous, sessionId, now, salt: `fork:${at}` },
    );
    text += `${previous.raw}\n`;
  }
  return text;
};
