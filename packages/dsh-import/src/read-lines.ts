/**
 * Splits a transcript into parsed JSON lines, keeping 1-based line numbers. A line that is not JSON
 * is fatal unless it is the last one (a torn tail: dropped with a warning) or several JSON objects
 * written without a newline between them (recovered, with a warning).
 */
import { ImportError } from './import-error.js';

/** One parsed source line: its object and where it stood. */
export type SourceLine = { line: number; value: Record<string, unknown> };

/** Parsed lines plus what was dropped or recovered on the way. */
export type ReadLines = { lines: SourceLine[]; warnings: string[] };

const MAX_SHOWN = 80;

function show(text: string): string {
  return JSON.stringify(text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}…` : text);
}

/**
 * Splits `text` at top-level object boundaries (`}{` with no newline), respecting strings; undefined
 * when it is not a run of whole objects.
 */
function splitConcatenated(text: string): string[] | undefined {
  const parts: string[] = [];
  let depth = 0;
  let inString = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 123 || c === 91) depth++;
    else if (c === 125 || c === 93) {
      depth--;
      if (depth === 0) {
        parts.push(text.slice(start, i + 1));
        start = i + 1;
        while (start < text.length && /\s/.test(text.charAt(start))) start++;
        i = start - 1;
      }
    }
  }
  return depth === 0 && start === text.length && parts.length > 1 ? parts : undefined;
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The start of the last line of `text` holding anything but whitespace (-1: none): a torn tail can only be there. */
function lastLineStart(text: string): number {
  for (let end = text.length; ;) {
    const start = end === 0 ? 0 : text.lastIndexOf('\n', end - 1) + 1;
    if (text.slice(start, end).trim() !== '') return start;
    if (start === 0) return -1;
    end = start - 1;
  }
}

/**
 * Parses every non-empty line of `text`. A malformed line that is not the last one is skipped with a
 * warning naming it, as the tools read their files — or, when `strict`, refused (`MALFORMED_LINE`).
 */
export function readLines(text: string, strict = false): ReadLines {
  const lines: SourceLine[] = [];
  const warnings: string[] = [];
  // The first malformed line skipped: refused after all when no line is JSON (the text is no session file).
  let firstSkipped: ImportError | undefined;
  const lastStart = lastLineStart(text);
  const read = (raw: string, index: number, isLast: boolean): void => {
    let source = raw;
    if (source.charCodeAt(source.length - 1) === 13) source = source.slice(0, -1);
    // Almost every line starts with `{`: only the others pay for a whitespace check.
    if (source.charCodeAt(0) !== 123 && source.trim() === '') return;
    const line = index + 1;
    const value = parseObject(source);
    if (value !== undefined) {
      lines.push({ line, value });
      return;
    }
    const parts = splitConcatenated(source.trim());
    const values = parts?.map(parseObject);
    if (values !== undefined && values.every((v) => v !== undefined)) {
      for (const v of values) lines.push({ line, value: v });
      warnings.push(`line ${line}: ${values.length} JSON objects written without a newline between them; read as ${values.length} lines`);
      return;
    }
    if (isLast) {
      warnings.push(
        `line ${line}: torn final line (${source.length} characters that are not a whole JSON object) dropped, as a writer that died mid-line leaves it`,
      );
      return;
    }
    const refusal = new ImportError('MALFORMED_LINE', `line ${line}: expected one JSON object per line, received ${show(source)}`, {
      line,
    });
    if (!strict) {
      firstSkipped ??= refusal;
      warnings.push(`line ${line}: not a JSON object (${show(source)}); skipped, as the tools skip it (--strict refuses it)`);
      return;
    }
    throw refusal;
  };
  // Line by line up to the last that holds anything (no array of every line's text).
  for (let start = 0, index = 0; lastStart >= 0; index++) {
    const newline = text.indexOf('\n', start);
    const end = newline < 0 ? text.length : newline;
    read(text.slice(start, end), index, start === lastStart);
    if (start === lastStart) break;
    start = end + 1;
  }
  if (lines.length === 0 && firstSkipped !== undefined) throw firstSkipped;
  return { lines, warnings };
}
