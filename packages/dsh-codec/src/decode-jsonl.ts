/**
 * @module decode-jsonl
 * Reading a JSONL log of any released version (V0–V7) as the current format: version detection,
 * that version's frozen validator, step-by-step migration, torn-tail and line-ending detection
 * (`decodeJsonl`, `DecodedLog`, `DecodeOptions`, `TornTail`).
 */
import { CodecError } from './codec-error.js';
import { CURRENT_FORMAT_VERSION } from './current-format-version.js';
import { errorFromIssues } from './error-from-issues.js';
import { migrateToCurrent } from './migrate.js';
import { migrateOwnedV0 } from './migrate-owned-v0.js';
import { LineCursor, type LineEndings } from './split-lines.js';
import type { FormatVersion, SessionEvent, SessionHeader, ValidationIssue } from './types.js';
import { describeValue } from './shared/describe-value.js';
import { LogValidation, type LogRules } from './shared/log-validation.js';
import type { V3Event } from './v3/types.js';
import type { V0Event } from './v0/schemas.js';
import { validateParsed } from './validate.js';
import type { V4Header } from './v4/types.js';
import { V4_LOG_RULES } from './v4/validate-v4.js';
import { migrateV4ToV5 } from './v5/migrate-v4-to-v5.js';
import type { V5Header } from './v5/types.js';
import { V5_LOG_RULES } from './v5/validate-v5.js';
import { migrateV5ToV6 } from './v6/migrate-v5-to-v6.js';
import type { V6Header } from './v6/types.js';
import { V6_LOG_RULES } from './v6/validate-v6.js';
import { checkV7LogHeader } from './v7/check-header.js';
import { migrateV6ToV7 } from './v7/migrate-v6-to-v7.js';
import { V7_LOG_RULES } from './v7/validate-v7.js';

/** Where a torn final line starts: UTF-8 byte offset into the text, and its 1-based line number. */
export type TornTail = { offset: number; line: number };

/**
 * A decoded log, always in the current (V7) shape, and the version it was read from. `lineEndings`
 * is present only when some line did not end in LF (dsh writes LF; a writer rewrites such a log in
 * LF before appending to it).
 */
export type DecodedLog = {
  header: SessionHeader;
  events: SessionEvent[];
  sourceVersion: FormatVersion;
  lineEndings?: Exclude<LineEndings, 'lf'>;
  tornTail?: TornTail;
};

/** Options of `decodeJsonl`. */
export type DecodeOptions = {
  /** The id a V0 log (no header) takes. */
  sessionId?: string;
  /** Called every 8,192 parsed lines, and once with `phase: 'migrating'` before an older log is checked and migrated. */
  onProgress?: (progress: { lines: number; phase: 'parsing' | 'migrating' }) => void;
};

/** The newest format version this release reads. */
const NEWEST = CURRENT_FORMAT_VERSION;

/** The versions validated in one pass as they are parsed (header-only migrations to the current one), with their rules. */
const ONE_PASS_RULES: ReadonlyMap<FormatVersion, LogRules<V3Event>> = new Map<FormatVersion, LogRules<V3Event>>([
  [4, V4_LOG_RULES],
  [5, V5_LOG_RULES],
  [6, V6_LOG_RULES],
  [NEWEST, V7_LOG_RULES],
]);
const TORN = Symbol('torn');

/**
 * Reads a JSONL log of any released version (V0–V7) and returns it as V7: detect the version from
 * line 1, validate with that version's validator, migrate step by step, validate as V7. A JSONL store's manifest (a header naming
 * sealed segments) is not a self-contained log and is refused (`INVALID_HEADER`).
 * Lines may end with LF, CRLF or a lone CR (the same events either way). A torn final line is
 * reported as `tornTail`, not an error; any other bad line throws `CodecError` with its line.
 * Never writes; `sessionId` names a V0 log (which has no header). `onProgress` hears how many
 * lines were parsed (every few thousand), then that an older log is being checked and migrated.
 */
export function decodeJsonl(text: string, options: DecodeOptions = {}): DecodedLog {
  if (typeof text !== 'string') throw new CodecError('CORRUPT', `decodeJsonl: expected the log's text, got ${describeValue(text)}`);
  const cursor = new LineCursor(text);
  // A final line without its line break was never committed: torn, whatever it holds.
  const unterminated = cursor.rest < text.length;
  let torn: { start: number; line: number } | undefined;
  const parse = (line: string): unknown => {
    try {
      return JSON.parse(line);
    } catch (cause) {
      if (!unterminated && cursor.isLast()) return TORN;
      throw new CodecError(
        'MALFORMED_JSON',
        `line ${String(cursor.line)}: expected one JSON object, got unparsable text ${describeValue(line)} (${cause instanceof Error ? cause.message : 'parse error'}); only a torn final line may be set aside, so the log is refused`,
        { line: cursor.line, cause },
      );
    }
  };
  const firstLine = cursor.next();
  const first = firstLine === undefined ? TORN : parse(firstLine);
  if (first === TORN) {
    // No complete first line. An empty text is a V0 log with no events (V0 files had no header);
    // a torn first line is a V0 event cut short, unless it is the start of a header.
    const fragment = firstLine ?? text;
    if (/^\s*\{\s*"format"/.test(fragment)) {
      throw new CodecError('CORRUPT', 'line 1: the header line is torn or unparsable: no complete header', { line: 1 });
    }
    const decoded = decodeOlder({ events: [] }, 0, options, () => 1);
    return text === '' ? { ...decoded, sourceVersion: 0 } : { ...decoded, sourceVersion: 0, tornTail: { offset: 0, line: 1 } };
  }
  const version = detectVersion(first);
  const headerLines = version === 0 ? 0 : 1;
  const lineOf = (issue: ValidationIssue): number | undefined => {
    if (issue.path[0] === 'header') return 1;
    const index = issue.path[1];
    return issue.path[0] === 'events' && typeof index === 'number' ? index + 1 + headerLines : undefined;
  };

  const events: unknown[] = version === 0 ? [first] : [];
  // The current version, V6, V5 and V4 (every stored log of the three previous releases) are validated as
  // they are parsed: one pass, nothing serialised again.
  const rules = ONE_PASS_RULES.get(version);
  const validation = rules === undefined ? undefined : new LogValidation(rules, first);
  if (validation !== undefined && validation.issues.length > 0) throw errorFromIssues(validation.issues, { lineOf });
  for (let line = cursor.next(); line !== undefined; line = cursor.next()) {
    let value: unknown;
    try {
      value = parse(line);
    } catch (error) {
      // An earlier invalid line is reported before a later unparsable one.
      if (validation !== undefined && validation.issues.length > 0) throw errorFromIssues(validation.issues, { lineOf });
      throw error;
    }
    if (value === TORN) {
      torn = { start: cursor.start, line: cursor.line };
      break;
    }
    events.push(value);
    validation?.event(value, true);
    if (options.onProgress !== undefined && (events.length & 8191) === 0) options.onProgress({ lines: cursor.line, phase: 'parsing' });
  }
  // Every complete line was read (only the last complete line can be torn): the remainder follows them.
  if (unterminated) torn = { start: cursor.rest, line: cursor.line + 1 };
  const tornTail = torn === undefined ? undefined : { offset: utf8Length(text, torn.start), line: torn.line };

  let header: SessionHeader;
  let current: SessionEvent[];
  if (validation !== undefined) {
    const issues = validation.finish();
    if (issues.length > 0) throw errorFromIssues(issues, { lineOf });
    if (version === NEWEST) {
      header = first as SessionHeader;
      current = events as SessionEvent[];
    } else {
      // V4 → V5 → V6 → V7 change only the header, and every valid V4, V5 or V6 event is a valid V7 event
      // (a property test pins this): the events need no second pass, only the migrated header its V7 check.
      const v5Header = version === 4 ? migrateV4ToV5({ header: first as V4Header, events: [] }).header : (first as V5Header);
      const v6Header = version === 6 ? (first as V6Header) : migrateV5ToV6({ header: v5Header, events: [] }).header;
      ({ header, events: current } = migrateV6ToV7({ header: v6Header, events: events as SessionEvent[] }));
      const headerIssues = checkV7LogHeader(header);
      if (headerIssues.length > 0) throw errorFromIssues(headerIssues, { lineOf, context: `(after migrating from V${String(version)})` });
    }
  } else {
    const older = version as 0 | 1 | 2 | 3;
    options.onProgress?.({ lines: cursor.line, phase: 'migrating' });
    ({ header, events: current } = decodeOlder(older === 0 ? { events } : { header: first, events }, older, options, lineOf));
  }
  const result: DecodedLog = { header, events: current, sourceVersion: version };
  if (cursor.lineEndings !== 'lf') result.lineEndings = cursor.lineEndings;
  if (tornTail !== undefined) result.tornTail = tornTail;
  return result;
}

/** Validates an older artifact with its frozen validator, migrates it, and validates the result as V7. */
function decodeOlder(
  artifact: { header?: unknown; events: unknown[] },
  version: 0 | 1 | 2 | 3,
  options: { sessionId?: string },
  lineOf: (issue: ValidationIssue) => number | undefined,
): { header: SessionHeader; events: SessionEvent[] } {
  const issues = validateParsed(version, artifact);
  if (issues.length > 0) throw errorFromIssues(issues, { lineOf, context: `(reading a V${String(version)} log)` });
  // The decoder owns a V0 log's parsed events: they are rewritten in place rather than copied.
  const migrated = version === 0 ? migrateOwnedV0(artifact.events as V0Event[], options) : migrateToCurrent(artifact, version, options);
  // Migrations build plain objects around values fresh from JSON.parse (already found lossless), so
  // the V7 check may use its cheap lossless test for parsed values.
  const validation = new LogValidation(V7_LOG_RULES, migrated.header);
  for (const event of migrated.events) validation.event(event, true);
  const migratedIssues = validation.finish();
  if (migratedIssues.length > 0) throw errorFromIssues(migratedIssues, { lineOf, context: `(after migrating from V${String(version)})` });
  return migrated;
}

/** The version of a log from its first line: a header names it; an event means V0 (no header). */
function detectVersion(first: unknown): FormatVersion {
  if (typeof first !== 'object' || first === null || Array.isArray(first)) {
    throw new CodecError(
      'INVALID_HEADER',
      `line 1: expected a header {format: "dsh-session", version, ...} (or a V0 event), got ${describeValue(first)}`,
      { line: 1 },
    );
  }
  if (!('format' in first)) return 0;
  const { format, version } = first as { format: unknown; version?: unknown };
  if (format !== 'dsh-session') {
    throw new CodecError('INVALID_HEADER', `line 1: expected format "dsh-session", got ${describeValue(format)}`, { line: 1 });
  }
  if (typeof version === 'number' && Number.isSafeInteger(version) && version > NEWEST) {
    throw new CodecError(
      'UNSUPPORTED_VERSION',
      `line 1: format version ${String(version)} was written by a newer dsh — upgrade (this dsh reads versions 0 to ${String(NEWEST)})`,
      { line: 1 },
    );
  }
  if (version !== 1 && version !== 2 && version !== 3 && version !== 4 && version !== 5 && version !== 6 && version !== 7) {
    throw new CodecError('INVALID_HEADER', `line 1: expected header version 1, 2, 3, 4, 5, 6 or 7, got ${describeValue(version)}`, {
      line: 1,
    });
  }
  return version;
}

/** UTF-8 byte length of `text.slice(0, end)`, counting a lone surrogate as U+FFFD (3 bytes). */
function utf8Length(text: string, end: number): number {
  let bytes = 0;
  for (let i = 0; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < end) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}
