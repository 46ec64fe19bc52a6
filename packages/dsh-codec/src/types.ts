/**
 * In-memory types of the current persisted format (V7, SPEC §3, §13, §23 and §24). Everything a reader returns is
 * of these shapes, whatever version it was read from.
 */

/** A lossless JSON value: no `undefined`, NaN, ±Infinity, -0, sparse arrays or non-plain objects. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** An object whose values are JSON. */
export type JsonObject = { [key: string]: JsonValue };

/**
 * The model's reasoning (V5, assistant messages only). `text` may be empty when the provider hides
 * it; `providerData` is what the provider needs back verbatim (a signature, redacted data).
 */
export type ReasoningBlock = { type: 'reasoning'; text: string; providerData?: JsonObject };

/**
 * A text block, a tool call declared by the model (`arguments` is the raw JSON string it produced),
 * or a reasoning block (the validator admits it in assistant messages only).
 */
export type ContentBlock =
  { type: 'text'; text: string } | { type: 'tool-call'; id: string; name: string; arguments: string } | ReasoningBlock;

export type UserMessage = { id: string; role: 'user'; content: ContentBlock[] };
export type AssistantMessage = { id: string; role: 'assistant'; content: ContentBlock[] };
export type ToolResultMessage = {
  id: string;
  role: 'tool';
  callId: string;
  content: ContentBlock[];
  isError: boolean;
};

/** What a tool declares about re-running it; `unknown` for calls recorded before effects existed. */
export type ToolEffect = 'read-only' | 'idempotent' | 'side-effect' | 'unknown';

/** Replaces the surface nodes `start..end` (inclusive, by seq) with the event carrying it. */
export type SurfaceOp = { op: 'replace'; start: number; end: number };

export type TurnEndReason =
  | { kind: 'completed' }
  | { kind: 'cancelled' }
  | { kind: 'error'; error: { message: string; code: string } }
  | { kind: 'max-steps' }
  | { kind: 'interrupted' }
  | { kind: 'forked' };

/** Why an open tail is closed: crash recovery or a fork. Selects result ids and wording. */
export type CloseCause = 'interrupted' | 'forked';

export type SessionConfig = {
  tools?: string[];
  cwd?: string;
  model?: string;
  /** V7: `false` takes no workspace checkpoints for the session (SPEC §23), stored so that a resume or fork keeps it. */
  checkpoints?: boolean;
};

/** An idempotent fork request stored with the child it created (SPEC §12): the key and a digest of the request. */
export type ForkRequest = { key: string; digest: string };

/**
 * The V7 header, line 1 of every file written by this version. Spelled out whole rather than built
 * on the frozen `V6Header` (`v6/types.ts`), which repeats its fields on purpose
 * (docs/decisions/2026-12-02-codec-copies.md).
 */
export type SessionHeader = {
  format: 'dsh-session';
  version: 7;
  id: string;
  createdAt: number;
  cwd?: string;
  parentSession?: string;
  forkCut?: number;
  inheritedEventCount: number;
  forkRequest?: ForkRequest;
  /**
   * V7: the sealed segments whose lines are this session's first events, in order — only in a
   * manifest as the JSONL store writes it; a log a reader returns is self-contained and has none.
   */
  segments?: SealedSegment[];
};

/**
 * A sealed segment a V7 manifest names: its SHA-256 (`digest`, lowercase hex), and how many of its
 * first bytes (`bytes`, exactly `lines` complete LF-terminated event lines) the session takes.
 */
export type SealedSegment = { digest: string; bytes: number; lines: number };

/**
 * A model-visible note about the session's files (V6, SPEC §23), standing between turns: which files
 * the inherited history touched have changed since the fork point (at most 50 `paths`, then `more`),
 * or that the working directory moved `from` → `to`. `text` is always the canonical text of the rest
 * (`workspaceStaleNoteText`, `workspaceMovedNoteText`); build one with `workspaceStaleNote` / `workspaceMovedNote`.
 */
export type SessionNoteData =
  | { kind: 'workspace-stale'; text: string; paths: string[]; more?: number }
  | { kind: 'workspace-moved'; text: string; from: string; to: string };

/** Payloads of the core event types (SPEC §3.3). */
export type CoreEventDataMap = {
  'session/end-seed': { inherited?: true };
  'session/title': { title: string };
  'session/config': SessionConfig;
  'input/queued': { inputId: string; message: UserMessage };
  'turn/start': { turn: number };
  'user/message': { message: UserMessage; inputId?: string };
  'step/start': { turn: number; step: number };
  'assistant/message': { turn: number; step: number; message: AssistantMessage; usage?: JsonObject };
  'tool/call': { turn: number; step: number; callId: string; name: string; arguments: string; effect: ToolEffect };
  'tool/result': {
    turn: number;
    step: number;
    message: ToolResultMessage;
    error?: { name: string; code: string };
  };
  'step/end': { turn: number; step: number };
  'turn/end': { turn: number; reason: TurnEndReason };
  'session/note': SessionNoteData;
};

export type CoreEventType = keyof CoreEventDataMap;

/** The envelope of every event: exactly these keys (SPEC §3.1). */
export type SessionEvent<Type extends string = string, Data = JsonValue> = {
  readonly seq: number;
  readonly type: Type;
  readonly time: number;
  readonly data: Data;
  readonly surfaceOp?: SurfaceOp;
  readonly ignorable?: true;
};

/** A core event with its typed payload, discriminated by `type`. */
export type CoreEvent = { [K in CoreEventType]: SessionEvent<K, CoreEventDataMap[K]> }[CoreEventType];

/** The plugin event types dsh itself writes (each with `ignorable: true`; payloads held to the envelope only, docs/format.md). */
export type DshPluginEventType =
  | 'agent/system-prompt'
  | 'claude/entry'
  | 'claude/fork'
  | 'claude/key'
  | 'compaction/start'
  | 'compaction/summary'
  | 'compaction/end'
  | 'import/source'
  | 'workspace/checkpoint';

declare const otherPluginEventType: unique symbol;

/**
 * Any other plugin's event type: `prefix/name` (SPEC §3), a `string` that no core type literal matches,
 * so narrowing `DshEvent` on a core `type` drops it. Compare one with `isPluginEvent(event, 'my/type')`.
 */
export type OtherPluginEventType = `${string}/${string}` & { readonly [otherPluginEventType]: true };

/** The type of an event that is not core: one dsh writes, or another plugin's. */
export type PluginEventType = DshPluginEventType | OtherPluginEventType;

/** An event of a non-core type: always `ignorable: true`, its payload any JSON. */
export type PluginEvent<Type extends PluginEventType = PluginEventType> = {
  readonly seq: number;
  readonly type: Type;
  readonly time: number;
  readonly data: JsonValue;
  readonly surfaceOp?: SurfaceOp;
  readonly ignorable: true;
};

/**
 * An event as a V6 reader hands it out (`session.events`): a core event with its typed payload, or a
 * plugin event. `if (event.type === 'tool/call')` narrows to the `tool/call` event.
 */
export type DshEvent = CoreEvent | { [K in DshPluginEventType]: PluginEvent<K> }[DshPluginEventType] | PluginEvent<OtherPluginEventType>;

/** A header and its events: what a file holds, once decoded. */
export type SessionArtifact = { header: SessionHeader; events: SessionEvent[] };

/** One problem found by a validator; validators report every problem, not only the first. */
export type ValidationIssue = {
  code: 'INVALID_HEADER' | 'INVALID_EVENT' | 'INVALID_RELATIONSHIP';
  /** Where in the artifact: `['header', 'id']` or `['events', 3, 'data', 'turn']`. */
  path: (string | number)[];
  /** The event's seq when the issue is about one event. */
  seq?: number;
  message: string;
};

export type FormatVersion = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7;
