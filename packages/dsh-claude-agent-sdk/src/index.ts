/**
 * @module dsh-claude-agent-sdk
 * dsh as the Claude Agent SDK's session store: every transcript a durable dsh session (JSONL
 * directory or PostgreSQL), one writer per session across processes, and exact forks at any entry.
 */
export { createClaudeSessionStore, type ClaudeSessionStoreOptions } from './create-claude-session-store.js';
export { CLAUDE_STORE_ERROR_CODES, ClaudeStoreError, type ClaudeStoreErrorCode } from './claude-store-error.js';
export type { ClaudeSessionStore, FoldSessionSummary, SessionKey, SessionStoreEntry, SessionSummaryEntry } from './claude-types.js';
export { forkClaudeSession, type ClaudeFork, type ForkClaudeSessionOptions } from './fork-claude-session.js';
export { claudeProjectKey } from './claude-project-key.js';
