/**
 * Turns a session's events into the chat transcript the page renders: messages as bubbles, tool
 * calls with their effect and result, synthetic closers marked by cause, turn and fork boundaries.
 * Pure, so the rendering rules are testable without a browser.
 */
import { claudeEntryItems } from './claude-entry-items.js';
import type { SyntheticCause, ToolResultView, TranscriptItem } from './transcript-item.js';
import type { WireEvent, WireHeader } from './wire.js';

type Block = { type?: unknown; text?: unknown; id?: unknown; name?: unknown; arguments?: unknown };

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function blocks(message: unknown): Block[] {
  const content = record(message).content;
  return Array.isArray(content) ? content.map((block) => record(block) as Block) : [];
}

/** The text blocks of a message, joined by blank lines. */
export function messageText(message: unknown): string {
  return blocks(message)
    .filter((block) => block.type === 'text' && typeof block.text === 'string')
    .map((block) => block.text as string)
    .join('\n\n');
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' ? value : undefined;
}

/** Recognises the canonical synthetic results of SPEC §4 by their id prefix and error code. */
export function syntheticOf(messageId: string, errorCode: string | undefined): ToolResultView['synthetic'] {
  const cause: SyntheticCause | undefined = messageId.startsWith('forked-tool-result-')
    ? 'forked'
    : messageId.startsWith('interrupted-tool-result-')
      ? 'interrupted'
      : undefined;
  if (cause === undefined) return undefined;
  if (errorCode === 'TOOL_NOT_STARTED') return { cause, started: false };
  if (errorCode === 'TOOL_OUTCOME_UNKNOWN') return { cause, started: true };
  return undefined;
}

function describeConfig(data: Record<string, unknown>): string {
  const parts: string[] = [];
  if (Array.isArray(data.tools)) parts.push(`tools ${data.tools.filter((t) => typeof t === 'string').join(', ') || '(none)'}`);
  const cwd = str(data.cwd);
  if (cwd !== undefined) parts.push(`cwd ${cwd}`);
  const model = str(data.model);
  if (model !== undefined) parts.push(`model ${model}`);
  return `Configuration: ${parts.join('; ') || 'defaults'}`;
}

/**
 * Builds the transcript of `events` for the session with `header`. Input queued at or after the
 * header's `inheritedEventCount` and not yet claimed by a turn is returned as `pending`.
 */
export function transcriptItems(events: readonly WireEvent[], header: WireHeader): TranscriptItem[] {
  const items: TranscriptItem[] = [];
  const tools = new Map<string, Extract<TranscriptItem, { kind: 'tool' }>>();
  const pending = new Map<string, Extract<TranscriptItem, { kind: 'pending' }>>();
  let lastInherited = -1;
  // Seq of the latest fork marker pushed: a closer after it is drawn after it, not inside its call.
  let markerSeq = -1;
  for (const event of events) {
    if (event.type === 'session/end-seed' && record(event.data).inherited === true) lastInherited = event.seq;
  }

  for (const event of events) {
    const data = record(event.data);
    switch (event.type) {
      case 'session/title':
        items.push({ kind: 'note', seq: event.seq, text: `Title set to “${str(data.title) ?? ''}”` });
        break;
      case 'session/config':
        items.push({ kind: 'note', seq: event.seq, text: describeConfig(data) });
        break;
      case 'session/end-seed':
        if (data.inherited === true) {
          const own = event.seq === lastInherited;
          markerSeq = event.seq;
          items.push({
            kind: 'fork-marker',
            seq: event.seq,
            own,
            ...(own && header.parentSession !== undefined ? { parentSession: header.parentSession } : {}),
            ...(own && header.forkCut !== undefined ? { forkCut: header.forkCut } : {}),
          });
        } else {
          items.push({ kind: 'lifecycle', seq: event.seq });
        }
        break;
      case 'input/queued': {
        const inputId = str(data.inputId);
        if (inputId !== undefined && event.seq >= header.inheritedEventCount) {
          const item = { kind: 'pending' as const, seq: event.seq, text: messageText(data.message), inputId };
          pending.set(inputId, item);
        }
        break;
      }
      case 'turn/start':
        tools.clear();
        items.push({ kind: 'turn-start', seq: event.seq, turn: num(data.turn) ?? 0 });
        break;
      case 'user/message': {
        const text = messageText(data.message);
        if (event.surfaceOp !== undefined) {
          items.push({ kind: 'summary', seq: event.seq, text, start: event.surfaceOp.start, end: event.surfaceOp.end });
          break;
        }
        const inputId = str(data.inputId);
        if (inputId !== undefined) pending.delete(inputId);
        items.push({ kind: 'user', seq: event.seq, text, ...(inputId !== undefined ? { inputId } : {}) });
        break;
      }
      case 'assistant/message': {
        const text = messageText(data.message);
        if (text !== '') items.push({ kind: 'assistant', seq: event.seq, text });
        for (const block of blocks(data.message)) {
          if (block.type !== 'tool-call' || typeof block.id !== 'string') continue;
          const tool = {
            kind: 'tool' as const,
            seq: event.seq,
            callId: block.id,
            name: str(block.name) ?? '?',
            arguments: str(block.arguments) ?? '',
          };
          tools.set(block.id, tool);
          items.push(tool);
        }
        break;
      }
      case 'tool/call': {
        const tool = tools.get(str(data.callId) ?? '');
        if (tool) {
          tool.callSeq = event.seq;
          const effect = str(data.effect);
          if (effect !== undefined) tool.effect = effect;
        }
        break;
      }
      case 'tool/result': {
        const message = record(data.message);
        const callId = str(message.callId) ?? '';
        const errorCode = str(record(data.error).code);
        const synthetic = syntheticOf(str(message.id) ?? '', errorCode);
        const result: ToolResultView = {
          seq: event.seq,
          text: messageText(message),
          isError: message.isError === true,
          ...(errorCode !== undefined ? { errorCode } : {}),
          ...(synthetic !== undefined ? { synthetic } : {}),
        };
        const tool = tools.get(callId);
        if (tool && tool.seq < markerSeq) {
          // A fork closer: the call is inherited and drawn once, where it was called; its closer
          // belongs to the branch and is drawn after the marker as a result naming that call.
          items.push({ kind: 'closer', seq: result.seq, callId, name: tool.name, callSeq: tool.callSeq ?? tool.seq, result });
          tool.closedBelow = result.seq;
        } else if (tool) tool.result = result;
        else items.push({ kind: 'tool', seq: event.seq, callId, name: '?', arguments: '', result });
        break;
      }
      case 'turn/end': {
        const reason = record(data.reason);
        const errorMessage = str(record(reason.error).message);
        items.push({
          kind: 'turn-end',
          seq: event.seq,
          turn: num(data.turn) ?? 0,
          reason: str(reason.kind) ?? 'unknown',
          ...(errorMessage !== undefined ? { errorMessage } : {}),
        });
        break;
      }
      case 'step/start':
      case 'step/end':
        break; // steps show in the inspector only
      case 'compaction/start':
        items.push({ kind: 'note', seq: event.seq, text: 'Compaction started' });
        break;
      case 'compaction/summary':
        break; // the replacing user/message carries the summary text
      case 'compaction/end':
        items.push({ kind: 'note', seq: event.seq, text: 'Compaction finished' });
        break;
      case 'workspace/checkpoint': {
        const callId = str(data.callId);
        const tree = str(data.tree);
        const ms = num(data.ms);
        const callName = callId === undefined ? undefined : tools.get(callId)?.name;
        items.push({
          kind: 'checkpoint',
          seq: event.seq,
          after: str(data.after) ?? 'unknown',
          skipped: Array.isArray(data.skipped) ? data.skipped.length : 0,
          ...(tree !== undefined ? { tree } : {}),
          ...(callId !== undefined ? { callId } : {}),
          ...(callName !== undefined ? { callName } : {}),
          ...(ms !== undefined ? { ms } : {}),
        });
        break;
      }
      case 'session/note':
        items.push({ kind: 'workspace-note', seq: event.seq, note: str(data.kind) ?? 'note', text: str(data.text) ?? '' });
        break;
      case 'claude/entry':
        items.push(...claudeEntryItems(data, event.seq, tools));
        break;
      case 'claude/key':
        items.push({
          kind: 'note',
          seq: event.seq,
          text: `Claude Agent SDK transcript ${str(data.sessionId) ?? '?'}${str(data.subpath) === undefined ? '' : ` (${str(data.subpath) ?? ''})`}`,
        });
        break;
      case 'claude/fork':
        items.push({
          kind: 'note',
          seq: event.seq,
          text: `Forked from Claude session ${str(record(data.parent).sessionId) ?? '?'} at entry ${str(data.at) ?? '?'}`,
        });
        break;
      default:
        items.push({ kind: 'note', seq: event.seq, text: `${event.type}${event.ignorable ? ' (plugin event)' : ''}` });
    }
  }
  items.push(...pending.values());
  return items;
}

/**
 * The latest `session/title` in the log, if any (latest wins): dsh-session's `latestMetadata` rule,
 * read here because the page can use neither it (dsh-session's main entry brings the JSONL backend's
 * node built-ins, and the demo's layer row does not include dsh-session) nor the observation's
 * `title`, a snapshot taken at load, while this follows the `session/title` events streamed after it.
 */
export function latestTitle(events: readonly WireEvent[]): string | undefined {
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index];
    if (event?.type === 'session/title') return str(record(event.data).title);
  }
  return undefined;
}

/** True while the log has a `turn/start` without its `turn/end`. */
export function hasOpenTurn(events: readonly WireEvent[]): boolean {
  let open = false;
  for (const event of events) {
    if (event.type === 'turn/start') open = true;
    else if (event.type === 'turn/end') open = false;
  }
  return open;
}
