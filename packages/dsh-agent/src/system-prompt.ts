/**
 * @module system-prompt
 * A session's system prompt: the default one (its working directory and the rules its tools keep),
 * and the `agent/system-prompt` event that records the prompt a session runs with. The event is an
 * ignorable plugin event, so every V5 reader accepts it (docs/decisions/2026-12-02-system-prompt-event.md).
 */
import type { SessionEvent } from 'dsh-codec';
import type { Session } from 'dsh-session';

/** The type of the event that records a session's system prompt (appended with `ignorable: true`). */
export const SYSTEM_PROMPT_EVENT = 'agent/system-prompt';

/**
 * What `agent/system-prompt` holds: the base prompt (dsh's default, or one given with
 * `--system-prompt`), text appended to it (`--append-system-prompt`), and whether the base is the default.
 */
export type SystemPromptRecord = { systemPrompt: string; appendSystemPrompt?: string; isDefault?: true };

/** The default system prompt of a session working in `cwd` (none: no workspace) with these tools. */
export function defaultSystemPrompt(options: { cwd: string | undefined; tools: readonly string[] }): string {
  const lines = ['You are an agent working in a dsh session: every message, tool call and result is recorded in its log.'];
  if (options.cwd === undefined) {
    lines.push('This session has no working directory, so file tools are refused (NO_WORKSPACE) until one is given.');
  } else {
    lines.push(`Your working directory is ${options.cwd}. Tool paths are relative to it and may not leave it.`);
  }
  if (options.tools.length === 0) {
    lines.push('No tools are available in this session: answer from the conversation.');
  } else {
    lines.push(
      `Tools available: ${options.tools.join(', ')}. Call a tool only when you need its result; every result is the real outcome.`,
    );
    lines.push(
      'A result marked as synthetic (a fork or a crash closed the call) means the call did not run or its outcome is unknown: check before repeating a call with side effects.',
    );
  }
  return lines.join('\n');
}

/** The text a record sends: the base prompt, then the appended text after a blank line. */
export function systemPromptText(record: SystemPromptRecord): string {
  const appended = record.appendSystemPrompt;
  return appended === undefined || appended === '' ? record.systemPrompt : `${record.systemPrompt}\n\n${appended}`;
}

/** The latest `agent/system-prompt` record of a log, if it has one with the expected shape. */
export function recordedSystemPrompt(events: readonly SessionEvent[]): SystemPromptRecord | undefined {
  return latestRecordIn(events);
}

/**
 * `recordedSystemPrompt` of a session's log, reading its latest `agent/system-prompt` event alone
 * (`session.latest`) and the whole log only when that one is malformed: a resumed long session is not decoded for it.
 */
export function recordedSystemPromptOf(session: Pick<Session, 'latest' | 'events'>): SystemPromptRecord | undefined {
  const latest = session.latest(SYSTEM_PROMPT_EVENT);
  if (latest === undefined) return undefined;
  return latestRecordIn([latest]) ?? latestRecordIn(session.events);
}

function latestRecordIn(events: readonly SessionEvent[]): SystemPromptRecord | undefined {
  for (let index = events.length - 1; index >= 0; index -= 1) {
    const event = events[index];
    if (event?.type !== SYSTEM_PROMPT_EVENT) continue;
    const data = event.data as Partial<Record<keyof SystemPromptRecord, unknown>> | null;
    if (data === null || typeof data !== 'object' || typeof data.systemPrompt !== 'string') continue;
    return {
      systemPrompt: data.systemPrompt,
      ...(typeof data.appendSystemPrompt === 'string' ? { appendSystemPrompt: data.appendSystemPrompt } : {}),
      ...(data.isDefault === true ? { isDefault: true as const } : {}),
    };
  }
  return undefined;
}
