/**
 * @module peer-compare
 * `dsh peers --compare A B`: two existing sessions side by side — what each did since its fork
 * (turns, tool calls, files changed), its final answer, and a line diff of the two final answers.
 */
import type { ContentBlock, SessionEvent } from 'dsh-codec';
import type { Observation } from 'dsh-host/core';
import { lineDiff, type DiffLine } from './line-diff.js';
import { writtenPaths } from './peer-report.js';

/** One session of a comparison, counted over its own events (after what it inherited). */
export type ComparedSession = {
  name: string;
  session_id: string;
  parent_session: string | null;
  fork_cut: number | null;
  cwd: string | null;
  /** The text of its latest assistant message ('' when it has answered nothing of its own). */
  result: string;
  num_turns: number;
  tool_calls: string[];
  files_changed: string[];
};

/** What `--compare --output-format json` prints. */
export type Comparison = {
  /** True when both were forked from the same parent at the same cut (peers in SPEC §20's sense). */
  peers: boolean;
  sessions: [ComparedSession, ComparedSession];
  /** The final answers' line diff, first against second; null when they are too long to diff. */
  answer_diff: DiffLine[] | null;
};

function textOf(event: SessionEvent): string {
  const content = (event.data as { message?: { content?: ContentBlock[] } }).message?.content ?? [];
  return content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
}

/**
 * One side from an observation: its own turns, their tool calls and written paths (or, when
 * `filesChanged` is given — a peer in its own worktree — git's view of them), and its last answer.
 */
export function comparedSession(name: string, observed: Observation, filesChanged?: string[]): ComparedSession {
  const own = observed.events.slice(observed.header.inheritedEventCount);
  const turns = own.filter((event) => event.type === 'turn/start').map((event) => (event.data as { turn: number }).turn);
  const answers = own.filter((event) => event.type === 'assistant/message' && textOf(event).trim() !== '');
  const last = answers.at(-1);
  return {
    name,
    session_id: observed.header.id,
    parent_session: observed.header.parentSession ?? null,
    fork_cut: observed.header.forkCut ?? null,
    cwd: observed.cwd ?? null,
    result: last === undefined ? '' : textOf(last),
    num_turns: turns.length,
    tool_calls: own.filter((event) => event.type === 'tool/call').map((event) => (event.data as { name: string }).name),
    files_changed: filesChanged ?? [...new Set(turns.flatMap((turn) => writtenPaths(own, turn)))].sort(),
  };
}

/** Both sides and the diff of their final answers. */
export function compareSessions(first: ComparedSession, second: ComparedSession): Comparison {
  const peers = first.parent_session !== null && first.parent_session === second.parent_session && first.fork_cut === second.fork_cut;
  return { peers, sessions: [first, second], answer_diff: lineDiff(first.result, second.result) ?? null };
}

/** The comparison as text: a header naming their relation, two columns of facts, then the answers' diff. */
export function comparisonText(comparison: Comparison): string {
  const [a, b] = comparison.sessions;
  const relation = comparison.peers
    ? `peers: both forked from ${a.parent_session ?? ''} at seq ${String(a.fork_cut)}`
    : 'not peers: they were not forked from the same session at the same cut';
  const rows: [string, string, string][] = [
    ['', a.name, b.name],
    ['session', a.session_id, b.session_id],
    ['forked from', forkedFrom(a), forkedFrom(b)],
    ['cwd', a.cwd ?? '(none)', b.cwd ?? '(none)'],
    ['turns', String(a.num_turns), String(b.num_turns)],
    ['tool calls', a.tool_calls.join(', ') || 'none', b.tool_calls.join(', ') || 'none'],
    ['files changed', a.files_changed.join(', ') || 'none', b.files_changed.join(', ') || 'none'],
  ];
  const widths = [0, 1].map((column) => Math.max(...rows.map((row) => row[column]?.length ?? 0)));
  const table = rows.map(([label, left, right]) => `${label.padEnd(widths[0] ?? 0)}  ${left.padEnd(widths[1] ?? 0)}  ${right}`.trimEnd());
  const diff =
    comparison.answer_diff === null
      ? ['(the answers are too long to diff; see each with dsh show)']
      : comparison.answer_diff.length === 0
        ? ['(neither has an answer of its own yet)']
        : comparison.answer_diff.map((line) => `${line.kind} ${line.text}`.trimEnd());
  return [relation, '', ...table, '', `final answers (- ${a.name}, + ${b.name}):`, ...diff, ''].join('\n');
}

function forkedFrom(side: ComparedSession): string {
  return side.parent_session === null ? '(not a fork)' : `${side.parent_session} @ ${String(side.fork_cut)}`;
}
