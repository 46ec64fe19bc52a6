import type { SessionEvent } from 'dsh-codec';

/**
 * The seq of the first `tool/call` at or after `from` that opens a step with two or more declared
 * calls — a cut there leaves one started call and at least one not-started call without results,
 * the hardest place to fork. Throws when the log has none after `from`.
 */
export function findOpenStepCut(events: readonly SessionEvent[], from: number): number {
  for (let seq = Math.max(0, from); seq < events.length; seq += 1) {
    const event = events[seq];
    if (event?.type !== 'tool/call') continue;
    const previous = events[seq - 1];
    if (previous?.type !== 'assistant/message') continue;
    if (declaredCalls(previous.data) >= 2) return seq;
  }
  throw new RangeError(`findOpenStepCut: no step with two or more calls starts at or after seq ${from}`);
}

function declaredCalls(data: unknown): number {
  const content = (data as { message?: { content?: unknown } } | null)?.message?.content;
  if (!Array.isArray(content)) return 0;
  return content.filter((block: unknown) => (block as { type?: unknown } | null)?.type === 'tool-call').length;
}
