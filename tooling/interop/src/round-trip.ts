/**
 * import ∘ export for the round-trip tests: a session file → dsh (import) → each tool's format
 * (export) → dsh again, compared as `dsh export --format messages` compares histories.
 */
import { deriveHistory } from 'dsh-host';
import { exportNativeTranscript, importTranscript, type HistoryMessage, type TranscriptFormat } from 'dsh-import';

/** One message as `--format messages` shows it: role, joined text, calls, result id and flag. */
export type FlatMessage = {
  role: string;
  content: string;
  toolCalls?: { id: string; name: string; arguments: string }[];
  toolCallId?: string;
  isError?: boolean;
};

/** The history of `messages` flattened; `target` says what that format keeps (Codex has no error flag). */
export function flatHistory(messages: readonly HistoryMessage[], target?: TranscriptFormat): FlatMessage[] {
  return messages.map((message) => {
    const content = message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
    const calls = message.content.flatMap((block) =>
      block.type === 'tool-call' ? [{ id: block.id, name: block.name, arguments: canonical(block.arguments, target) }] : [],
    );
    return {
      role: message.role,
      content,
      ...(calls.length === 0 ? {} : { toolCalls: calls }),
      ...(message.role === 'tool' ? { toolCallId: message.callId, isError: target === 'codex' ? false : message.isError } : {}),
    };
  });
}

/** Claude Code and pi store arguments as objects: their text comes back in JSON.stringify's form. */
function canonical(text: string, target: TranscriptFormat | undefined): string {
  if (target === undefined || target === 'codex') return text;
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return '{}';
  }
}

/** The main session's history of `text`, and its history after export to `target` and import back. */
export function roundTrip(text: string, target: TranscriptFormat): { before: FlatMessage[]; after: FlatMessage[]; exported: string } {
  const main = importTranscript(text).sessions[0];
  const history = deriveHistory(main?.events ?? []) as HistoryMessage[];
  const exported = exportNativeTranscript(history, {
    format: target,
    sessionId: '01900000-0000-7000-8000-000000000001',
    now: Date.UTC(2026, 11, 2),
  });
  const back = importTranscript(exported.text, { format: target }).sessions[0];
  return { before: flatHistory(history, target), after: flatHistory(deriveHistory(back?.events ?? []), target), exported: exported.text };
}
