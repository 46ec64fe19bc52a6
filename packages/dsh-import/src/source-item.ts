/**
 * The format-neutral stream every reader turns its lines into, and the writer turns into events.
 * `key` names the source entry an item came from (for compaction ranges and branch points).
 */
import type { ContentBlock, JsonObject, SessionConfig } from 'dsh-codec';

/** How a source says a turn ended when it was not simply completed. */
export type TurnOutcome = { kind: 'cancelled' } | { kind: 'error'; message: string };

/** One step of a conversation as a source recorded it. */
export type SourceItem =
  /** User text; `opensTurn: false` for context injected inside a turn (meta lines, hook output). */
  | { kind: 'prompt'; key: string; id: string; time: number; content: ContentBlock[]; opensTurn: boolean }
  /** One model response (all its source lines merged); its tool-call blocks declare the step's calls. */
  | { kind: 'response'; key: string; id: string; time: number; content: ContentBlock[]; usage?: JsonObject; outcome?: TurnOutcome }
  /** The result of a call, with the texts exactly as recorded. */
  | { kind: 'result'; key: string; id: string; time: number; callId: string; content: ContentBlock[]; isError: boolean }
  /** A summary replacing the history before `keepFrom` (the first kept entry's key; default: all of it). */
  | { kind: 'compaction'; key: string; id: string; time: number; summary: string; keepFrom?: string }
  | { kind: 'config'; key: string; time: number; config: SessionConfig }
  | { kind: 'title'; key: string; time: number; title: string }
  /** Where the session came from (`import/source`, ignorable): the source's ids and links. */
  | { kind: 'source'; key: string; time: number; data: JsonObject }
  /** The source says how the open turn ended (an interruption, an API error). */
  | { kind: 'outcome'; key: string; time: number; outcome: TurnOutcome };

/** Parses an ISO timestamp (or epoch ms) into epoch ms; undefined when there is none. */
export function timeOf(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return Math.trunc(value);
  if (typeof value !== 'string') return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

/** Counts of things read but not carried over, reported once per kind as a warning. */
export class WarningTally {
  private readonly counts = new Map<string, { count: number; first: number }>();

  add(what: string, line: number): void {
    const entry = this.counts.get(what);
    if (entry === undefined) this.counts.set(what, { count: 1, first: line });
    else entry.count++;
  }

  /** One sentence per kind, in the order first seen. */
  messages(): string[] {
    return [...this.counts].map(([what, { count, first }]) => `${what}: ${count} (first at line ${first})`);
  }
}
