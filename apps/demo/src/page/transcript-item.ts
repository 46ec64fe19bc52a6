/** @module `TranscriptItem`: one rendered item of the chat transcript, and the tool result view it carries. */

/** Why a synthetic result exists: a fork closed the tail, or crash recovery did (SPEC §4). */
export type SyntheticCause = 'forked' | 'interrupted';

/** A tool result as rendered: `synthetic` is set for the canonical closers of SPEC §4. */
export type ToolResultView = {
  seq: number;
  text: string;
  isError: boolean;
  errorCode?: string;
  synthetic?: { cause: SyntheticCause; started: boolean };
};

/** One rendered item of the transcript, at the seq of the event that produced it. */
export type TranscriptItem =
  | { kind: 'user'; seq: number; text: string; inputId?: string }
  | { kind: 'pending'; seq: number; text: string; inputId: string }
  | { kind: 'assistant'; seq: number; text: string }
  | {
      kind: 'tool';
      seq: number;
      callId: string;
      name: string;
      arguments: string;
      effect?: string;
      callSeq?: number;
      result?: ToolResultView;
      /** Set on a call declared before a fork marker whose closer follows the marker: the closer's seq. */
      closedBelow?: number;
    }
  /** A fork closer of a call drawn above the marker (where it was called): only the result, naming the call. */
  | { kind: 'closer'; seq: number; callId: string; name: string; callSeq: number; result: ToolResultView }
  | { kind: 'turn-start'; seq: number; turn: number }
  | { kind: 'turn-end'; seq: number; turn: number; reason: string; errorMessage?: string }
  | { kind: 'fork-marker'; seq: number; own: boolean; parentSession?: string; forkCut?: number }
  | { kind: 'lifecycle'; seq: number }
  | { kind: 'summary'; seq: number; text: string; start: number; end: number }
  /**
   * A `workspace/checkpoint` (SPEC §23): what it follows (`turn-start`, `call` with the call's id and
   * name, `restore`), the captured tree's id, how many paths it skipped, and how long it took.
   */
  | { kind: 'checkpoint'; seq: number; after: string; tree?: string; callId?: string; callName?: string; skipped: number; ms?: number }
  /** A `session/note` (SPEC §23): the model-visible note about the session's files (stale or moved), its canonical text. */
  | { kind: 'workspace-note'; seq: number; note: string; text: string }
  | { kind: 'note'; seq: number; text: string };
