/**
 * `listNativeEntries` (SPEC §26 "Finding the entry to cut at", behind `dsh show FILE --entries`):
 * every entry on a Claude Code, Codex or pi file's main line with the REF `dsh fork FILE --at`
 * takes (Claude Code `uuid`, Codex `ordinal`, pi `id`; none for a pi version 1 entry), the seq that
 * fork reports for it — which `--at seq:N` takes back to the first entry listed with it (a thinking
 * or text line inside a Claude Code response: the step start before it) — the tool's own entry type, a one-line
 * summary of what dsh reads from it, and the calls it holds. Each entry's seq and summary come from
 * dsh's reading of the line up to it; `forEachPrefixReading` makes every such reading in one pass and
 * `ListedCuts` takes each seq from what changed since the entry before, so the cost grows with the
 * line's length (not its square).
 */
import type { SessionEvent } from 'dsh-codec';
import type { TranscriptFormat } from '../detect-format.js';
import { ListedCuts } from './listed-cut.js';
import { mainLineOf } from './native-cut.js';
import { nativeFormatOf } from './native-formats.js';
import { field, splitNativeLines, type NativeLine } from './native-line.js';
import { forEachPrefixReading, type PrefixReading, type PrefixWork } from './prefix-readings.js';

/** One entry of the main line. */
export type NativeEntry = {
  /** What `--at` takes for it (absent for an entry without an id: cut there with `seq`). */
  ref?: string;
  /** The seq of the cut `dsh fork FILE --at REF` reports for it (also accepted as `--at seq:N`). */
  seq: number;
  /** The tool's own type of the entry (`user`, `assistant`, `response_item/function_call`, `message/toolResult`, …). */
  type: string;
  /** What dsh reads from it, on one line. */
  summary: string;
  /** The tool calls it holds. */
  calls: { id: string; name: string }[];
};

const SUMMARY = 120;

function oneLine(text: string): string {
  const words = text.replace(/\s+/g, ' ').trim();
  return words.length > SUMMARY ? `${words.slice(0, SUMMARY - 1)}…` : words;
}

function textOf(content: unknown): string {
  if (!Array.isArray(content)) return '';
  return (content as { type?: string; text?: string }[])
    .map((block) => (block.type === 'text' || block.type === 'reasoning' ? (block.text ?? '') : ''))
    .join(' ');
}

/** One event as a few words (messages by their text, calls by name and id, results by their call). */
function describe(event: SessionEvent): string | undefined {
  const data = event.data as Record<string, unknown>;
  const message = (data.message ?? {}) as { content?: unknown; callId?: string };
  switch (event.type) {
    case 'user/message':
      return `user: ${textOf(message.content)}`;
    case 'assistant/message':
      return `assistant: ${textOf(message.content)}`;
    case 'tool/call':
      return `calls ${String(data.name)}#${String(data.callId)}`;
    case 'tool/result':
      return `result of ${String(message.callId)}: ${textOf(message.content)}`;
    default:
      return undefined;
  }
}

/** The tool's own type of `line`. */
function entryType(format: TranscriptFormat, line: NativeLine): string {
  const value = line.value;
  const type = field(value, 'type') ?? '?';
  if (format === 'codex') {
    const payload = (value.payload ?? {}) as Record<string, unknown>;
    const inner = typeof payload.type === 'string' ? payload.type : undefined;
    return inner === undefined ? type : `${type}/${inner}`;
  }
  if (format === 'pi' && type === 'message') {
    const role = field((value.message ?? {}) as Record<string, unknown>, 'role');
    return role === undefined ? type : `message/${role}`;
  }
  return type;
}

/** The entries of `text`'s main line, in chain order; a malformed line is skipped and named in `warnings` (`MALFORMED_LINE` when `strict`). */
export function listNativeEntries(
  text: string,
  options: { format?: 'auto' | TranscriptFormat; strict?: boolean } = {},
): { format: TranscriptFormat; entries: NativeEntry[]; warnings: string[] } {
  const { work: _work, ...listed } = listNativeEntriesWithWork(text, options);
  return listed;
}

/** The previous prefix's reading as far as the next one may differ from it: events before `keep` are `base`'s. */
type Previous = { base: readonly SessionEvent[]; keep: number; rest: readonly SessionEvent[]; length: number };

/**
 * `listNativeEntries` and the work its pass did (`whole`: read every prefix by `eventsOfLines`, as
 * the test that holds the two equal does). @internal
 */
export function listNativeEntriesWithWork(
  text: string,
  options: { format?: 'auto' | TranscriptFormat; strict?: boolean; whole?: boolean } = {},
): { format: TranscriptFormat; entries: NativeEntry[]; warnings: string[]; work: PrefixWork } {
  const warnings: string[] = [];
  const lines = splitNativeLines(text, options.strict === true ? undefined : warnings);
  const format = nativeFormatOf(lines, options.format);
  const main = mainLineOf(format, lines);
  const chain = main.chain();
  const entries: NativeEntry[] = [];
  const cuts = new ListedCuts(format, lines, chain, main);
  let previous: Previous = { base: [], keep: 0, rest: [], length: 0 };
  let previousWritten = false;
  // Each call is marked on the first entry whose reading holds it.
  const marked = new Set<string>();
  const work = forEachPrefixReading(
    format,
    chain,
    (position, reading) => {
      const line = chain[position] as NativeLine;
      const length = reading.kind === 'whole' ? reading.events.length : reading.length + reading.tail.length;
      const at = (i: number): SessionEvent =>
        (reading.kind === 'whole'
          ? reading.events[i]
          : i < reading.length
            ? reading.base[i]
            : reading.tail[i - reading.length]) as SessionEvent;
      const before = (i: number): SessionEvent => (i < previous.keep ? previous.base[i] : previous.rest[i - previous.keep]) as SessionEvent;
      // What this entry adds: the reading from where it first differs from the reading without it
      // (events before `stable` are the very events of that reading).
      let same = reading.kind === 'written' && previousWritten ? Math.min(reading.stable, previous.length) : 0;
      while (same < previous.length && same < length && unchanged(before(same), at(same))) same++;
      const added: SessionEvent[] = [];
      for (let i = same; i < length; i++) if (!at(i).type.startsWith('session/')) added.push(at(i));
      previous = keptOf(reading);
      previousWritten = reading.kind === 'written';
      const ref = format.refOf(line);
      const calls = added
        .filter((event) => event.type === 'tool/call' && !marked.has((event.data as { callId: string }).callId))
        .map((event) => {
          const data = event.data as { callId: string; name: string };
          marked.add(data.callId);
          return { id: data.callId, name: data.name };
        });
      const summary = oneLine(
        added
          .map(describe)
          .filter((part): part is string => part !== undefined && part.trim() !== '')
          .join(' · '),
      );
      entries.push({
        ...(ref === undefined ? {} : { ref }),
        seq: cuts.at(position, reading),
        type: entryType(format.format, line),
        summary,
        calls,
      });
    },
    { whole: options.whole === true },
  );
  return { format: format.format, entries, warnings, work };
}

// The events a later line may restate without adding anything there: where the session came from
// (a subagent's result links it) and its title (the first prompt names it).
const RESTATED = new Set(['import/source', 'session/title']);

/** Whether `after` is `before` as far as what an entry adds goes (a restated source record or title is). */
function unchanged(before: SessionEvent, after: SessionEvent): boolean {
  if (before.type === after.type && RESTATED.has(before.type)) return true;
  return JSON.stringify(before) === JSON.stringify(after);
}

/** What of `reading` the next prefix's comparison needs. */
function keptOf(reading: PrefixReading): Previous {
  if (reading.kind === 'whole') return { base: reading.events, keep: reading.events.length, rest: [], length: reading.events.length };
  const { base, length, tail, keep } = reading;
  return { base, keep, rest: base.slice(keep, length).concat(tail), length: length + tail.length };
}
