/**
 * @module derive-history
 * Model history from events (SPEC §3.5): surface events in log order, where a
 * `surfaceOp: replace` swaps the surface nodes `start..end` (by seq, inclusive) for itself; a
 * `session/note` (format V6, SPEC §23) is a user message at its place, so every adapter sends it.
 */
import type { SessionEvent } from 'dsh-codec';
import { AgentError } from './agent-error.js';
import type { ModelMessage } from './model.js';

/** One model-visible message and the seq of the event that carries it. */
export type SurfaceNode = { seq: number; message: ModelMessage };

const SURFACE_TYPES = new Set(['user/message', 'assistant/message', 'tool/result', 'session/note']);

/**
 * The surface nodes of a log, in model order. Only `user/message`, `assistant/message`,
 * `tool/result` and `session/note` (its text as a user message with id `note-<seq>`) count;
 * `input/queued`, plugin and other lifecycle events never reach the model. A replacing node takes
 * the place of the first node it removes.
 */
export function deriveSurface(events: readonly SessionEvent[]): SurfaceNode[] {
  let nodes: SurfaceNode[] = [];
  for (const event of events) nodes = foldSurface(nodes, event);
  return nodes;
}

/**
 * The surface nodes after `event`, given those of the events before it: `nodes` itself (extended)
 * or, for a replacing node, a new array. Folding a log's events in order gives `deriveSurface(log)`.
 */
export function foldSurface(nodes: SurfaceNode[], event: SessionEvent): SurfaceNode[] {
  if (!SURFACE_TYPES.has(event.type)) return nodes;
  const node: SurfaceNode = { seq: event.seq, message: messageOf(event) };
  const op = event.surfaceOp;
  if (op?.op !== 'replace') {
    nodes.push(node);
    return nodes;
  }
  const first = nodes.findIndex((n) => n.seq >= op.start && n.seq <= op.end);
  const kept = nodes.filter((n) => n.seq < op.start || n.seq > op.end);
  if (first === -1) {
    // Nothing in range: the replacement lands where its range would have been, in seq order.
    const at = nodes.findIndex((n) => n.seq > op.end);
    return at === -1 ? [...kept, node] : [...kept.slice(0, at), node, ...kept.slice(at)];
  }
  return [...kept.slice(0, first), node, ...kept.slice(first)];
}

/** The model-visible history of a log: `deriveSurface()` without the seqs. */
export function deriveHistory(events: readonly SessionEvent[]): ModelMessage[] {
  return deriveSurface(events).map((node) => node.message);
}

function messageOf(event: SessionEvent): ModelMessage {
  if (event.type === 'session/note') return noteMessage(event);
  const data = event.data as { message?: ModelMessage } | null;
  if (data?.message === undefined) {
    throw new AgentError('INVALID_EVENT', `deriveHistory: expected data.message on ${event.type} at seq ${event.seq}, received none`);
  }
  return data.message;
}

/** A stored note as the user message the model reads (its canonical text, which names what it is about). */
function noteMessage(event: SessionEvent): ModelMessage {
  const text = (event.data as { text?: unknown } | null)?.text;
  if (typeof text !== 'string') {
    throw new AgentError('INVALID_EVENT', `deriveHistory: expected data.text on session/note at seq ${event.seq}, received none`);
  }
  return { id: `note-${String(event.seq)}`, role: 'user', content: [{ type: 'text', text }] };
}
