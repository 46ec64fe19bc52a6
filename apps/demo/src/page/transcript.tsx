/** The chat transcript: messages as bubbles, tool calls with effect and result, boundaries by seq. */
import type { JSX } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';
import type { StreamingText } from './streaming-text.js';
import type { ToolResultView, TranscriptItem } from './transcript-item.js';

type Props = { items: readonly TranscriptItem[]; onInspect: (seq: number) => void; selectedSeq: number | undefined };
type TranscriptProps = Props & { streaming?: StreamingText | undefined };

function SeqChip({ seq, onInspect, selected }: { seq: number; onInspect: (seq: number) => void; selected: boolean }) {
  return (
    <button
      type="button"
      class={selected ? 'seq selected' : 'seq'}
      aria-label={`Inspect event ${seq}`}
      aria-pressed={selected}
      onClick={() => {
        onInspect(seq);
      }}
    >
      #{seq}
    </button>
  );
}

const TURN_END_TEXT: Record<string, (turn: number) => string> = {
  completed: (turn) => `Turn ${turn} completed`,
  cancelled: (turn) => `Turn ${turn} cancelled`,
  'max-steps': (turn) => `Turn ${turn} stopped at the step limit`,
  forked: (turn) =>
    `Turn ${turn} closed at the fork point: this branch continues from here, while the parent keeps its own copy of the turn`,
  interrupted: (turn) => `Turn ${turn} interrupted: the process stopped mid-turn, and crash repair closed it`,
};

/** The label a synthetic result carries above its wording. */
export function syntheticLabel(synthetic: NonNullable<ToolResultView['synthetic']>): string {
  if (synthetic.cause === 'forked') {
    return synthetic.started
      ? 'Branch closer: started in the parent, outcome unknown to this branch'
      : 'Branch closer: not started before the fork';
  }
  return synthetic.started ? 'Crash repair: started, outcome unknown' : 'Crash repair: never started';
}

function shorten(text: string, max = 140): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function ToolResult({ result, ...chip }: { result: ToolResultView; onInspect: (seq: number) => void; selectedSeq: number | undefined }) {
  const synthetic = result.synthetic;
  const cls = synthetic ? `result synthetic ${synthetic.cause}` : result.isError ? 'result error' : 'result';
  return (
    <div class={cls}>
      <div class="result-head">
        <SeqChip seq={result.seq} onInspect={chip.onInspect} selected={chip.selectedSeq === result.seq} />
        <strong>
          {synthetic
            ? syntheticLabel(synthetic)
            : result.isError
              ? `Tool error${result.errorCode ? ` (${result.errorCode})` : ''}`
              : 'Result'}
        </strong>
      </div>
      <pre class="result-text">{synthetic ? result.text : shorten(result.text, 600)}</pre>
    </div>
  );
}

function Item({ item, onInspect, selectedSeq }: { item: TranscriptItem } & Omit<Props, 'items'>): JSX.Element {
  const chip = <SeqChip seq={item.seq} onInspect={onInspect} selected={selectedSeq === item.seq} />;
  switch (item.kind) {
    case 'user':
      return (
        <li class="bubble user" aria-label="User message">
          {chip}
          <p>{item.text}</p>
        </li>
      );
    case 'pending':
      return (
        <li class="bubble user pending" aria-label="Pending input">
          {chip}
          <span class="badge">queued: waits for the running turn</span>
          <p>{item.text}</p>
        </li>
      );
    case 'assistant':
      return (
        <li class="bubble assistant" aria-label="Assistant message">
          {chip}
          <p>{item.text}</p>
        </li>
      );
    case 'tool': {
      // A started call shows its tool/call seq; one never started shows the message that declared it.
      const callSeq = item.callSeq ?? item.seq;
      return (
        <li class={`tool effect-${item.effect ?? 'declared'}`} aria-label={`Tool call ${item.name}`}>
          <div class="tool-head">
            <SeqChip seq={callSeq} onInspect={onInspect} selected={selectedSeq === callSeq} />
            <code class="tool-name">{item.name}</code>
            <span class="effect">{item.effect ?? 'not started'}</span>
            <code class="tool-args">{shorten(item.arguments)}</code>
          </div>
          {item.result ? (
            <ToolResult result={item.result} onInspect={onInspect} selectedSeq={selectedSeq} />
          ) : item.closedBelow !== undefined ? (
            <div class="tool-status">Closed below the fork point by #{item.closedBelow}</div>
          ) : (
            <div class="tool-status">{item.callSeq !== undefined ? 'Started: no result recorded yet' : 'Declared: not started yet'}</div>
          )}
        </li>
      );
    }
    case 'closer':
      return (
        <li class="tool closer" aria-label={`Closer of ${item.name}`}>
          <div class="tool-head">
            <span class="muted">closes</span>
            <code class="tool-name">{item.name}</code>
            <span class="muted">called at</span>
            <SeqChip seq={item.callSeq} onInspect={onInspect} selected={selectedSeq === item.callSeq} />
          </div>
          <ToolResult result={item.result} onInspect={onInspect} selectedSeq={selectedSeq} />
        </li>
      );
    case 'turn-start':
      return (
        <li class="divider turn" aria-label={`Turn ${item.turn} starts`}>
          {chip}
          <span>Turn {item.turn}</span>
        </li>
      );
    case 'turn-end': {
      const text =
        item.reason === 'error'
          ? `Turn ${item.turn} ended with an error${item.errorMessage ? `: ${item.errorMessage}` : ''}`
          : (TURN_END_TEXT[item.reason]?.(item.turn) ?? `Turn ${item.turn} ended (${item.reason})`);
      return (
        <li class={`divider turn-end reason-${item.reason}`}>
          {chip}
          <span>{text}</span>
        </li>
      );
    }
    case 'fork-marker':
      return (
        <li class="divider fork-marker" aria-label="Fork point">
          {chip}
          <span>
            {item.own && item.parentSession !== undefined && item.forkCut !== undefined
              ? `Forked from ${item.parentSession} at seq ${item.forkCut}: seqs 0–${item.forkCut} are inherited; from seq ${item.seq} on, the branch closers included, everything belongs to this branch`
              : 'An ancestor’s fork point (inherited)'}
          </span>
        </li>
      );
    case 'lifecycle':
      return (
        <li class="divider lifecycle">
          {chip}
          <span>Session opened</span>
        </li>
      );
    case 'summary':
      return (
        <li class="bubble summary" aria-label="Compaction summary">
          {chip}
          <span class="badge">
            summary replacing seqs {item.start}–{item.end}
          </span>
          <p>{item.text}</p>
        </li>
      );
    case 'checkpoint':
      return (
        <li class="note checkpoint" aria-label={`Workspace checkpoint after ${checkpointAfter(item)}`}>
          {chip}
          <span>{checkpointText(item)}</span>
        </li>
      );
    case 'workspace-note':
      return (
        <li
          class="note workspace-note"
          aria-label={item.note === 'workspace-moved' ? 'Note: working directory moved' : 'Note: files changed'}
        >
          {chip}
          <span>Note to the model: {item.text}</span>
        </li>
      );
    case 'note':
      return (
        <li class="note">
          {chip}
          <span>{item.text}</span>
        </li>
      );
  }
}

/** What a checkpoint follows, in words: the turn's start, a named call, or a restore's undo point. */
function checkpointAfter(item: Extract<TranscriptItem, { kind: 'checkpoint' }>): string {
  if (item.after === 'turn-start') return 'turn start';
  if (item.after === 'restore') return 'restore (undo point)';
  if (item.after === 'call') return `${item.callName ?? 'call'}${item.callId === undefined ? '' : ` ${item.callId}`}`;
  return item.after;
}

/** One line: what it follows, the tree's short id, the skipped paths, the time taken. */
function checkpointText(item: Extract<TranscriptItem, { kind: 'checkpoint' }>): string {
  const parts = [`Checkpoint after ${checkpointAfter(item)}`];
  if (item.tree !== undefined) parts.push(`tree ${item.tree.slice(0, 7)}`);
  parts.push(item.skipped === 0 ? 'nothing skipped' : `${String(item.skipped)} skipped`);
  if (item.ms !== undefined) parts.push(`${String(Math.round(item.ms))} ms`);
  return parts.join(' · ');
}

/**
 * Renders the transcript as an ordered list labelled “Transcript”, ending with the running step's
 * streamed text (not yet an event, so without a seq) until its message arrives. It opens scrolled
 * to the end and follows new items while the reader is at the end; scrolling up stops the following.
 */
export function Transcript({ items, onInspect, selectedSeq, streaming }: TranscriptProps) {
  const list = useRef<HTMLOListElement>(null);
  const following = useRef(true);
  useLayoutEffect(() => {
    const element = list.current;
    if (element && following.current) element.scrollTop = element.scrollHeight;
  }, [items.length, streaming?.text]);
  return (
    <ol
      class="transcript"
      aria-label="Transcript"
      ref={list}
      onScroll={(event) => {
        const element = event.currentTarget;
        following.current = element.scrollHeight - element.scrollTop - element.clientHeight < 48;
      }}
    >
      {items.map((item) => (
        <Item
          key={`${item.kind}-${item.seq}-${'callId' in item ? item.callId : ''}`}
          item={item}
          onInspect={onInspect}
          selectedSeq={selectedSeq}
        />
      ))}
      {streaming !== undefined && (
        <li class="bubble assistant streaming" aria-label="Streaming reply" aria-live="polite">
          <span class="badge">
            streaming · turn {streaming.turn}, step {streaming.step}
          </span>
          <p>{streaming.text}</p>
        </li>
      )}
    </ol>
  );
}
