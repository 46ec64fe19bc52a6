/**
 * Frozen V4 written shapes that differ from the current in-memory types: the V4 header and V4's
 * content blocks (no reasoning). Added when V5 arrived, so V4 stays typed as it was released.
 * `V4Header` repeats most of the current `SessionHeader` (`../types.ts`) on purpose: a frozen
 * snapshot, which must not follow the current type when it moves, and the current header is read
 * whole in one place (docs/decisions/2026-12-02-codec-copies.md).
 */

/** The V4 header, line 1 of a file written by a V4 dsh. */
export type V4Header = {
  format: 'dsh-session';
  version: 4;
  id: string;
  createdAt: number;
  cwd?: string;
  parentSession?: string;
  forkCut?: number;
  inheritedEventCount: number;
};

/** A V4 content block: text or a declared tool call. */
export type V4ContentBlock = { type: 'text'; text: string } | { type: 'tool-call'; id: string; name: string; arguments: string };

/**
 * The V4 core event types (V5 kept them): a frozen list, so V4's and V5's schema tables do not grow
 * when the current `CoreEventType` does (V6 added `session/note`). Their payloads are the current ones.
 */
export type V4CoreEventType =
  | 'session/end-seed'
  | 'session/title'
  | 'session/config'
  | 'input/queued'
  | 'turn/start'
  | 'user/message'
  | 'step/start'
  | 'assistant/message'
  | 'tool/call'
  | 'tool/result'
  | 'step/end'
  | 'turn/end';
