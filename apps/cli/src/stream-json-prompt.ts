/**
 * @module stream-json-prompt
 * `--input-format stream-json` (SPEC §25): Claude Code's input lines on stdin, one JSON object per
 * line, `{"type":"user","message":{"role":"user","content":…}}`, read as one prompt.
 */
import { CliError } from './cli-error.js';

/** The text of one user message's `content`: a string, or the text of its `text` blocks. */
function textOf(content: unknown, line: number): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    const texts: string[] = [];
    for (const block of content as unknown[]) {
      const typed = block as { type?: unknown; text?: unknown } | null;
      if (typed?.type === 'text' && typeof typed.text === 'string') texts.push(typed.text);
      else throw badLine(line, `a content block of type '${String(typed?.type)}'; dsh reads text blocks only`);
    }
    return texts.join('\n');
  }
  throw badLine(line, `message.content of type ${content === null ? 'null' : typeof content}`);
}

function badLine(line: number, received: string): CliError {
  return new CliError(
    'USAGE',
    `--input-format stream-json expects one JSON object per stdin line, {"type":"user","message":{"role":"user","content":"…"}}; line ${String(line)} has ${received}.`,
    { hint: 'for plain text on stdin, drop --input-format (or pass --input-format text)' },
  );
}

/**
 * The prompt that stream-json `input` carries: every user message's text in order, joined by a blank
 * line into one turn. Blank lines are skipped; anything else that is not a user message is `USAGE`.
 */
export function streamJsonPrompt(input: string): string {
  const texts: string[] = [];
  input.split('\n').forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === '') return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      throw badLine(line, `text that is not JSON: ${JSON.stringify(raw.slice(0, 60))}`);
    }
    const object = parsed as { type?: unknown; message?: { role?: unknown; content?: unknown } | null } | null;
    if (
      object === null ||
      typeof object !== 'object' ||
      object.type !== 'user' ||
      typeof object.message !== 'object' ||
      object.message === null
    )
      throw badLine(line, `a value of type '${String(object?.type)}'`);
    texts.push(textOf(object.message.content, line));
  });
  return texts.join('\n\n');
}
