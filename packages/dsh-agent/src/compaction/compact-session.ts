/**
 * @module compaction/compact-session
 * The manual compaction plugin (`/compact` between turns). It writes, all `ignorable`:
 * `compaction/start {turn: null}` → `compaction/summary` → the replacing `user/message`
 * (`surfaceOp: replace` over the whole current history) → `compaction/end`.
 */
import type { SessionEvent } from 'dsh-codec';
import type { Session } from 'dsh-session';
import { AgentError } from '../agent-error.js';
import { deriveSurface } from '../derive-history.js';
import type { Model, ModelMessage } from '../model.js';
import { openTurn } from '../log-state.js';
import { COMPACTION_INSTRUCTION, COMPACTION_SYSTEM, SUMMARY_PREFIX } from './compaction-prompt.js';

/** Produces the summary text of a history; the default asks `model` (no tools offered). */
export type Summarizer = (messages: readonly ModelMessage[], signal: AbortSignal | undefined) => Promise<string>;

/** Options of `compactSession`: a model to summarize with, or a summarizer of your own. */
export type CompactOptions = { model?: Model; summarize?: Summarizer; signal?: AbortSignal };

/** What a compaction did: nothing (empty history), or which seqs it replaced with which summary. */
export type CompactionResult =
  | { compacted: false; reason: 'empty-history' }
  | { compacted: true; summary: string; replaced: { start: number; end: number }; startSeq: number; endSeq: number };

/**
 * Compacts the model history of `session` between turns. Refuses `TURN_IN_PROGRESS` inside a turn and
 * `COMPACTION_IN_PROGRESS` when this lifecycle has an unmatched `compaction/start` (one before the last
 * `session/end-seed` is stale: inherited or from a dead lifecycle, and ignored). A failed or cancelled
 * summary still closes its bracket with `compaction/end {status}` and rejects with `COMPACTION_FAILED`.
 */
export async function compactSession(session: Session, options: CompactOptions): Promise<CompactionResult> {
  const events = session.events;
  const turn = openTurn(events);
  if (turn !== undefined) {
    throw new AgentError('TURN_IN_PROGRESS', `cannot compact session ${session.id} inside turn ${turn}; compaction runs between turns`);
  }
  const open = openCompaction(events);
  if (open !== undefined) {
    throw new AgentError('COMPACTION_IN_PROGRESS', `session ${session.id} has a compaction open since seq ${open} in this lifecycle`);
  }
  const nodes = deriveSurface(events);
  if (nodes.length === 0) return { compacted: false, reason: 'empty-history' };
  const start = Math.min(...nodes.map((node) => node.seq));
  const end = Math.max(...nodes.map((node) => node.seq));
  const summarize = options.summarize ?? modelSummarizer(options.model, session.id);

  const startSeq = session.append('compaction/start', { turn: null, replace: { start, end } }, { ignorable: true }).seq;
  try {
    await session.flush();
  } catch (error) {
    // Storage failed (it may come back): the bracket is closed now, so a later compaction is not refused
    // COMPACTION_IN_PROGRESS; both records stay pending and are written once storage works.
    const message = error instanceof Error ? error.message : String(error);
    session.append('compaction/end', { startSeq, status: 'failed', error: { message } }, { ignorable: true });
    throw error;
  }
  let summary: string;
  try {
    options.signal?.throwIfAborted();
    summary = (
      await summarize(
        nodes.map((node) => node.message),
        options.signal,
      )
    ).trim();
    if (summary === '') throw new AgentError('COMPACTION_FAILED', 'expected a summary, received empty text');
  } catch (error) {
    const cancelled = options.signal?.aborted === true;
    const message = error instanceof Error ? error.message : String(error);
    session.append(
      'compaction/end',
      { startSeq, status: cancelled ? 'cancelled' : 'failed', ...(cancelled ? {} : { error: { message } }) },
      { ignorable: true },
    );
    await session.flush();
    throw new AgentError(
      'COMPACTION_FAILED',
      cancelled ? `compaction of session ${session.id} was cancelled` : `compaction of session ${session.id} failed: ${message}`,
      { cause: error },
    );
  }
  session.append('compaction/summary', { startSeq, summary, messageCount: nodes.length }, { ignorable: true });
  const seq = session.events.length;
  session.append(
    'user/message',
    {
      message: { id: `compaction-${seq}`, role: 'user', content: [{ type: 'text', text: `${SUMMARY_PREFIX}${summary}` }] },
    },
    { surfaceOp: { op: 'replace', start, end } },
  );
  const endSeq = session.append('compaction/end', { startSeq, status: 'completed' }, { ignorable: true }).seq;
  await session.flush();
  return { compacted: true, summary, replaced: { start, end }, startSeq, endSeq };
}

/**
 * The seq of a `compaction/start` of this lifecycle that no `compaction/end` names. Starts before
 * the session's last `session/end-seed` are stale and never block.
 */
export function openCompaction(events: readonly SessionEvent[]): number | undefined {
  let lastSeed = -1;
  for (const event of events) if (event.type === 'session/end-seed') lastSeed = event.seq;
  const open = new Set<number>();
  for (const event of events.slice(lastSeed + 1)) {
    if (event.type === 'compaction/start') open.add(event.seq);
    if (event.type === 'compaction/end') open.delete((event.data as { startSeq?: number }).startSeq ?? -1);
  }
  return open.size === 0 ? undefined : Math.min(...open);
}

function modelSummarizer(model: Model | undefined, sessionId: string): Summarizer {
  if (model === undefined) {
    throw new AgentError('INVALID_OPTION', `compacting session ${sessionId} needs a model or a summarize function`);
  }
  return async (messages, signal) => {
    const request: ModelMessage = {
      id: 'compaction-request',
      role: 'user',
      content: [{ type: 'text', text: COMPACTION_INSTRUCTION }],
    };
    const response = await model.complete({
      system: COMPACTION_SYSTEM,
      messages: [...messages, request],
      tools: [],
      ...(signal === undefined ? {} : { signal }),
    });
    return response.text;
  };
}
