/**
 * `importTranscript` (SPEC §16): a Claude Code, Codex or pi session file → dsh sessions, the main line
 * first and every other branch as an exact fork child. Pure and deterministic: the same text and
 * options give the same artifacts, times taken from the source's timestamps.
 */
import type { SessionEvent, SessionHeader } from 'dsh-codec';
import { buildSessions } from './build-sessions.js';
import { readClaudeCode } from './claude-code/read-claude-code.js';
import { readCodex } from './codex/read-codex.js';
import { detectFormat, formatOfLine, type TranscriptFormat } from './detect-format.js';
import { ImportError } from './import-error.js';
import { readPi } from './pi/read-pi.js';
import { readLines, type SourceLine } from './read-lines.js';
import type { ReadTranscript } from './read-transcript.js';

/** Options of `importTranscript`. */
export type ImportOptions = {
  /** The source format; `auto` (default) recognises it from the first lines. */
  format?: 'auto' | TranscriptFormat;
  /** The main session's id (branches get `<id>-branch-<n>`); default: the source's own session id. */
  sessionId?: string;
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

/** A valid dsh session id from a source id: other characters become `-`, long ids are cut. */
function toSessionId(source: string): string {
  const cleaned = source.replace(/[^A-Za-z0-9_-]/g, '-').slice(0, 100);
  return cleaned === '' ? 'imported' : cleaned;
}

function describe(value: Record<string, unknown>): string {
  const shown = JSON.stringify(value);
  return shown.length > 120 ? `${shown.slice(0, 120)}…` : shown;
}

/**
 * Reads a session file of Claude Code, Codex or pi. Refuses text of none of them (`UNKNOWN_FORMAT`),
 * a `format` the text does not fit (`FORMAT_MISMATCH`) and a malformed line before the last
 * (`MALFORMED_LINE`, naming it); a torn last line is dropped and reported in `warnings`.
 */
export function importTranscript(text: string, options: ImportOptions = {}): ImportResult {
  const requested = options.format ?? 'auto';
  if (!['auto', 'claude-code', 'codex', 'pi'].includes(requested)) {
    throw new ImportError('INVALID_OPTION', `format: expected auto, claude-code, codex or pi, received ${JSON.stringify(requested)}`);
  }
  if (options.sessionId !== undefined && !SESSION_ID.test(options.sessionId)) {
    throw new ImportError('INVALID_OPTION', `sessionId: expected 1–128 characters of [A-Za-z0-9_-], received ${JSON.stringify(options.sessionId)}`);
  }
  const { lines, warnings } = readLines(text);
  const first = lines[0];
  if (first === undefined) throw new ImportError('EMPTY_TRANSCRIPT', `expected at least one JSON line, received ${text.length} characters without one`);
  const detected = detectFormat(lines);
  let format: TranscriptFormat;
  if (requested === 'auto') {
    if (detected === undefined) throw new ImportError('UNKNOWN_FORMAT', `${EXPECTED}; line ${first.line} is ${describe(first.value)}`, { line: first.line });
    format = detected;
  } else {
    if (detected !== undefined && detected !== requested) {
      throw new ImportError('FORMAT_MISMATCH', `format ${requested} was asked for, but line ${first.line} is a ${detected} line: ${describe(first.value)}`, { line: first.line });
    }
    if (requested === 'pi' && formatOfLine(first.value, true) !== 'pi') {
      throw new ImportError('FORMAT_MISMATCH', `format pi expects a first line {"type":"session","id",…}, received ${describe(first.value)}`, { line: first.line });
    }
    format = requested;
  }
  const read = READERS[format](lines);
  const sessionId = options.sessionId ?? toSessionId(read.sessionId ?? 'imported');
  const built = buildSessions(read.lines, { sessionId, cwd: read.cwd, createdAt: read.createdAt ?? 0, effectOf: read.effectOf });
  return { format, sessions: built.sessions, warnings: [...warnings, ...read.warnings, ...built.warnings] };
}
