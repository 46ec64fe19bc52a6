/**
 * @module record-system-prompt
 * Records the system prompt a queried session runs with (`agent/system-prompt`, an ignorable
 * event): the one given, else the one it recorded, else the host's or dsh's default for its cwd and
 * tools; appended between turns only when it differs from what the log holds already.
 */
import { SYSTEM_PROMPT_EVENT, defaultSystemPrompt, recordedSystemPromptOf, type SystemPromptRecord } from 'dsh-agent';
import type { HostContext, LiveEntry } from '../host-context.js';

/** What a query asks of the system prompt: a new base (`systemPrompt`), new appended text, or neither. */
export type SystemPromptRequest = { systemPrompt?: string; appendSystemPrompt?: string };

function sameRecord(a: SystemPromptRecord | undefined, b: SystemPromptRecord): boolean {
  return (
    a !== undefined && a.systemPrompt === b.systemPrompt && a.appendSystemPrompt === b.appendSystemPrompt && a.isDefault === b.isDefault
  );
}

/** The record a session should run with now, given what it recorded and what the query asks. */
function nextRecord(context: HostContext, entry: LiveEntry, request: SystemPromptRequest): SystemPromptRecord {
  const recorded = recordedSystemPromptOf(entry.session);
  let next: SystemPromptRecord;
  if (request.systemPrompt !== undefined) next = { systemPrompt: request.systemPrompt };
  else if (recorded !== undefined && recorded.isDefault !== true) next = { systemPrompt: recorded.systemPrompt };
  else if (context.options.system !== undefined) next = { systemPrompt: context.options.system };
  else {
    // The default names the cwd and the tools: a session resumed elsewhere records it afresh.
    const tools = entry.agent.availableTools().map((tool) => tool.name);
    next = { systemPrompt: defaultSystemPrompt({ cwd: entry.agent.cwd(), tools }), isDefault: true };
  }
  const appended = request.appendSystemPrompt ?? recorded?.appendSystemPrompt;
  if (appended !== undefined && appended !== '') next.appendSystemPrompt = appended;
  return next;
}

/** Appends `agent/system-prompt` between turns when the session's prompt changes (or was never recorded). @internal */
export async function recordSystemPrompt(context: HostContext, entry: LiveEntry, request: SystemPromptRequest): Promise<void> {
  await entry.agent.betweenTurns(async () => {
    const next = nextRecord(context, entry, request);
    if (sameRecord(recordedSystemPromptOf(entry.session), next)) return;
    entry.session.append(SYSTEM_PROMPT_EVENT, next, { ignorable: true });
    await entry.session.flush();
  });
}
