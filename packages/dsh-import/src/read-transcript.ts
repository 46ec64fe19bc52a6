/**
 * What each format reader hands to `buildSessions`: the source's own session id and working
 * directory, its lines as item streams (main line first), and what it left out.
 */
import type { ContentBlock, JsonObject, ToolEffect } from 'dsh-codec';
import type { SourceItem } from './source-item.js';

/** What a reader found about the source's links to other sessions (source ids, not dsh ids). */
export type SourceLinks = {
  /** A subagent's own id (its file's `agentId`; Codex `agent_nickname`). */
  agentId?: string;
  /** A subagent's main session, as the source names it. */
  mainSourceId?: string;
  /** Calls of this session that spawned subagents: call id → the subagent's `agentId`. */
  spawned?: Record<string, string>;
  /** Codex: the first line's `ordinal` when it is not 0. */
  firstOrdinal?: number;
  /** Codex `history_base`. */
  historyBase?: { threadId: string; endOrdinalExclusive: number };
};

/** The result of one format reader. */
export type ReadTranscript = {
  sessionId: string | undefined;
  links?: SourceLinks;
  cwd: string | undefined;
  createdAt: number | undefined;
  lines: SourceItem[][];
  warnings: string[];
  effectOf: (name: string) => ToolEffect;
};

/** A plain object, or undefined. */
export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** A string, or undefined. */
export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** Call arguments as raw JSON text: kept as written when the source stored text, else serialised. */
export function argumentsText(value: unknown): string {
  if (typeof value === 'string') return value;
  return JSON.stringify(value ?? {});
}

/**
 * The `providerData.wire` markers dsh-agent's adapters send back verbatim (its `ANTHROPIC_WIRE` and
 * `OPENAI_WIRE`; dsh-import may not import dsh-agent, so an acceptance test keeps them equal).
 */
export const ANTHROPIC_WIRE = 'anthropic-messages';
export const OPENAI_CHAT_WIRE = 'openai-chat';
/** Reasoning from the OpenAI Responses API (Codex): its `encrypted_content`; no adapter sends it yet. */
export const OPENAI_RESPONSES_WIRE = 'openai-responses';

/** A reasoning block (format V5); `providerData` only when the source kept something to send back. */
export function reasoning(value: string, providerData?: JsonObject): ContentBlock {
  return providerData === undefined ? { type: 'reasoning', text: value } : { type: 'reasoning', text: value, providerData };
}

/** A text block. */
export function text(value: string): ContentBlock {
  return { type: 'text', text: value };
}
