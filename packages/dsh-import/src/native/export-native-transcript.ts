/**
 * `exportNativeTranscript` (SPEC §18 `dsh export --format claude-code|codex|pi`): a dsh session's
 * model-visible history → a session file of that tool, which the tool resumes and `dsh import`
 * reads back to the same history. Pure: the caller gives the id, the time and the history.
 */
import type { AssistantMessage, ContentBlock, ToolResultMessage, UserMessage } from 'dsh-codec';
import type { TranscriptFormat } from '../detect-format.js';
import { writeClaudeCodeLines, writeCodexLines, writePiLines } from './export-writers.js';
import { NATIVE_FORMATS } from './native-formats.js';
import { joinNativeLines } from './native-line.js';

/** One model-visible message (what `deriveHistory` returns). */
export type HistoryMessage = UserMessage | AssistantMessage | ToolResultMessage;

/** What an export needs besides the history. */
export type NativeExportOptions = {
  format: TranscriptFormat;
  sessionId: string;
  now: number;
  cwd?: string;
  model?: string;
  title?: string;
};

/** The exported file: its text, the name the tool's layout gives it, and the command that resumes it. */
export type NativeExport = {
  format: TranscriptFormat;
  sessionId: string;
  fileName: string;
  text: string;
  resume: (file: string) => string[];
};

/** Context every writer shares: the options, a clock that ticks 1 ms per entry, the call names. */
export type ExportContext = NativeExportOptions & { time: (index: number) => string; callNames: ReadonlyMap<string, string> };

/** The text blocks of `content` joined (a tool result's text, a user prompt). */
export function textOf(content: readonly ContentBlock[]): string {
  return content.map((block) => (block.type === 'text' ? block.text : '')).join('');
}

/** Writes `messages` as a session file of `options.format`. */
export function exportNativeTranscript(messages: readonly HistoryMessage[], options: NativeExportOptions): NativeExport {
  const callNames = new Map<string, string>();
  for (const message of messages) for (const block of message.content) if (block.type === 'tool-call') callNames.set(block.id, block.name);
  const context: ExportContext = { ...options, time: (index) => new Date(options.now + index).toISOString(), callNames };
  const writer = { 'claude-code': writeClaudeCodeLines, codex: writeCodexLines, pi: writePiLines }[options.format];
  const format = NATIVE_FORMATS[options.format];
  return {
    format: options.format,
    sessionId: options.sessionId,
    fileName: format.fileName(options.sessionId, options.now),
    text: joinNativeLines(writer(messages, context).map((value) => JSON.stringify(value))),
    resume: (file) => format.resume(options.sessionId, file),
  };
}
