/**
 * `importTranscript` (SPEC §16): a Claude Code, Codex or pi session file → dsh sessions, the main line
 * first and every other branch as an exact fork child. Pure and deterministic: the same text and
 * options give the same artifacts, times taken from the source's timestamps.
 */
import type { SessionEvent, SessionHeader } from 'dsh-codec';
import { buildSessions } from './build-sessions.js';
import { readClaudeCode } from './claude-code/read-claude-code.js';
import { readCodex } from './codex/read-codex.js';
import { detectFormat, formatOfLine, TRANSCRIPT_FORMATS, type TranscriptFormat } from './detect-format.js';
import { IMPORT_SOURCE_EVENT, sourceData, type ImportSource } from './import-source.js';
import { ImportError } from './import-error.js';
import { readPi } from './pi/read-pi.js';
import { readLines, type SourceLine } from './read-lines.js';
import type { ReadTranscript } from './read-transcript.js';
import type { SourceItem } from './source-item.js';
import { printableTitle } from './printable-title.js';

/** Options of `importTranscript`. */
export type ImportOptions = {
  /** The source format; `auto` (default) recognises it from the first lines. */
  format?: 'auto' | TranscriptFormat;
  /** The main session's id (branches get `<id>-branch-<n>`); default: the source's own session id. */
  sessionId?: string;
  /** Refuse a malformed line before the last (`MALFORMED_LINE`) instead of skipping it with a warning. */
  strict?: boolean;
};

/** What `importTranscript` returns: the format read, the sessions (main line first), what was left out. */
export type ImportResult = {
  format: TranscriptFormat;
  sessions: Array<{ header: SessionHeader; events: SessionEvent[] }>;
  warnings: string[];
};

const READERS: Record<TranscriptFormat, (lines: readonly SourceLine[]) => ReadTranscript> = {
  'claude-code': readClaudeCode,
  codex: readCodex,
  pi: readPi,
};

const EXPECTED =
  'expected a Claude Code session (JSON lines with "type" user/assistant/summary/… and "uuid"/"sessionId"), ' +
  'a Codex rollout (lines {"timestamp","type":"session_meta"|"response_item"|…,"payload"}) ' +
  'or a pi session (first line {"type":"session","id",…})';

const SESSION_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** A valid dsh session id from a source id: other characters become `-`, long ids are cut. @internal */
export function toSessionId(source: string): string {
  const cleaned = source.replace(/[^A-Za-z0-9_-]/g, '-').slice(0, 100);
  return cleaned === '' ? 'imported' : cleaned;
}

function describe(value: Record<string, unknown>): string {
  const shown = JSON.stringify(value);
  return shown.length > 120 ? `${shown.slice(0, 120)}…` : shown;
}

/**
 * Reads a session file of Claude Code, Codex or pi. Refuses text of none of them (`UNKNOWN_FORMAT`),
 * and a `format` the text does not fit (`FORMAT_MISMATCH`); a malformed line is skipped and named in
 * `warnings` (refused `MALFORMED_LINE` when `strict`); a torn last line is dropped and reported there.
 */
export function importTranscript(text: string, options: ImportOptions = {}): ImportResult {
  const requested = options.format ?? 'auto';
  if (requested !== 'auto' && !(TRANSCRIPT_FORMATS as readonly string[]).includes(requested)) {
    throw new ImportError(
      'INVALID_OPTION',
      `format: expected auto, ${TRANSCRIPT_FORMATS.join(', ')}, received ${JSON.stringify(requested)}`,
    );
  }
  if (options.sessionId !== undefined && !SESSION_ID.test(options.sessionId)) {
    throw new ImportError(
      'INVALID_OPTION',
      `sessionId: expected 1–128 characters of [A-Za-z0-9_-], received ${JSON.stringify(options.sessionId)}`,
    );
  }
  const { lines, warnings } = readLines(text, options.strict === true);
  return importSourceLines(lines, warnings, text.length, requested, options.sessionId);
}

/**
 * `importTranscript` after its lines are parsed (options already checked): what the native fork
 * runs on lines it holds parsed, so they are not joined and parsed again. @internal
 */
export function importSourceLines(
  lines: readonly SourceLine[],
  warnings: readonly string[],
  characters: number,
  requested: 'auto' | TranscriptFormat,
  requestedId: string | undefined,
): ImportResult {
  const first = lines[0];
  if (first === undefined)
    throw new ImportError('EMPTY_TRANSCRIPT', `expected at least one JSON line, received ${characters} characters without one`);
  const detected = detectFormat(lines);
  let format: TranscriptFormat;
  if (requested === 'auto') {
    if (detected === undefined)
      throw new ImportError('UNKNOWN_FORMAT', `${EXPECTED}; line ${first.line} is ${describe(first.value)}`, { line: first.line });
    format = detected;
  } else {
    if (detected !== undefined && detected !== requested) {
      throw new ImportError(
        'FORMAT_MISMATCH',
        `format ${requested} was asked for, but line ${first.line} is a ${detected} line: ${describe(first.value)}`,
        { line: first.line },
      );
    }
    if (requested === 'pi' && formatOfLine(first.value, true) !== 'pi') {
      throw new ImportError(
        'FORMAT_MISMATCH',
        `format pi expects a first line {"type":"session","id",…}, received ${describe(first.value)}`,
        { line: first.line },
      );
    }
    format = requested;
  }
  const read = READERS[format](lines);
  const source = sourceOf(format, read);
  const sessionId =
    requestedId ??
    toSessionId(
      source.agentId !== undefined && format === 'claude-code'
        ? `${source.mainSession ?? 'imported'}-agent-${source.agentId}`
        : source.sourceId,
    );
  const main = read.lines[0] ?? [];
  const head = headItems(
    source,
    read.createdAt,
    main.some((item) => item.kind === 'title'),
    () => titleOf(main),
  );
  const itemLines = read.lines.map((items) => head.concat(items));
  const built = buildSessions(itemLines, { sessionId, cwd: read.cwd, createdAt: read.createdAt ?? 0, effectOf: read.effectOf });
  return { format, sessions: built.sessions, warnings: [...warnings, ...read.warnings, ...built.warnings] };
}

/**
 * The items every session of an import starts with: where it came from, and a title unless its
 * main line holds one (`promptTitle`: the main line's first prompt in the user's own words). @internal
 */
export function headItems(
  source: ImportSource,
  createdAt: number | undefined,
  mainHasTitle: boolean,
  promptTitle: () => string | undefined,
): SourceItem[] {
  const time = createdAt ?? 0;
  const head: SourceItem[] = [{ kind: 'source', key: IMPORT_SOURCE_EVENT, time, data: sourceData(source) }];
  if (!mainHasTitle)
    head.push({ kind: 'title', key: 'title', time, title: promptTitle() ?? `${source.format} session ${source.sourceId}` });
  return head;
}

/** The `import/source` data of what a reader found: dsh ids derived from the source's ids. @internal */
export function sourceOf(format: TranscriptFormat, read: Pick<ReadTranscript, 'sessionId' | 'links'>): ImportSource {
  const links = read.links ?? {};
  const source: ImportSource = { format, sourceId: read.sessionId ?? 'imported' };
  if (links.mainSourceId !== undefined) source.mainSession = toSessionId(links.mainSourceId);
  if (links.agentId !== undefined) source.agentId = links.agentId;
  if (links.spawned !== undefined) {
    const main = toSessionId(source.sourceId);
    source.subagents = Object.fromEntries(
      Object.entries(links.spawned).map(([callId, agentId]) => [callId, toSessionId(`${main}-agent-${agentId}`)]),
    );
  }
  if (links.firstOrdinal !== undefined) source.firstOrdinal = links.firstOrdinal;
  if (links.historyBase !== undefined) source.historyBase = links.historyBase;
  return source;
}

const TITLE_LENGTH = 80;

/**
 * A title from the first user prompt that is the user's own words (not injected context such as
 * `<environment_context>`, `<command-name>` or Codex's `# AGENTS.md instructions`): one line of printable text, at most 80 characters.
 */
function titleOf(items: readonly SourceItem[]): string | undefined {
  for (const item of items) {
    const title = promptTitleOf(item);
    if (title !== undefined) return title;
  }
  return undefined;
}

/** `item`'s words as a title, when it is a prompt in the user's own words (see `titleOf`). @internal */
export function promptTitleOf(item: SourceItem): string | undefined {
  if (item.kind !== 'prompt' || !item.opensTurn) return undefined;
  const words = printableTitle(item.content.map((block) => (block.type === 'text' ? block.text : '')).join(' '), TITLE_LENGTH);
  if (
    words === undefined ||
    words.startsWith('<') ||
    words.startsWith('[Request interrupted') ||
    words.startsWith('# AGENTS.md instructions')
  )
    return undefined;
  return words;
}
