/**
 * @module export-command
 * `dsh export`: a session's model-visible history as Markdown or messages, or as a session file
 * Claude Code, Codex or pi resumes.
 */
import { deriveHistory } from 'dsh-host/core';
import type { CliContext } from '../cli-context.js';
import { CliError } from '../cli-error.js';
import type { OptionValues } from '../parse-command-line.js';
import { observeSessionOrFile } from '../observe-session-or-file.js';
import { terminalBody, terminalLine } from '../terminal-text.js';

type Block = { type: string; text?: string; id?: string; name?: string; arguments?: string };
type Message = { role: string; content: readonly Block[]; callId?: string; isError?: boolean };

/** A fenced block whose fence is longer than any backtick run inside `text`. */
function fenced(text: string, lang = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${lang}\n${text}\n${fence}`;
}

function textOf(content: readonly Block[]): string {
  return content
    .filter((block) => block.type === 'text')
    .map((block) => block.text ?? '')
    .join('\n');
}

/** The history as Markdown: one section per message, tool calls and results fenced. */
export function historyMarkdown(title: string, messages: readonly Message[]): string {
  const parts = [`# ${title}`];
  for (const message of messages) {
    if (message.role === 'tool') {
      parts.push(
        `### Tool result \`${message.callId ?? ''}\`${message.isError === true ? ' (error)' : ''}\n\n${fenced(textOf(message.content))}`,
      );
      continue;
    }
    const body: string[] = [];
    for (const block of message.content) {
      if (block.type === 'text') body.push(block.text ?? '');
      else if (block.type === 'tool-call')
        body.push(`**Tool call** \`${block.name ?? ''}\` (\`${block.id ?? ''}\`)\n\n${fenced(block.arguments ?? '', 'json')}`);
      else if (block.type === 'reasoning') body.push(`> *reasoning:* ${(block.text ?? '').replaceAll('\n', '\n> ')}`);
    }
    parts.push(`## ${message.role === 'user' ? 'User' : 'Assistant'}\n\n${body.join('\n\n')}`);
  }
  return `${parts.join('\n\n')}\n`;
}

/** The history as role/content messages: text joined, tool calls and result ids beside it. */
export function historyMessages(messages: readonly Message[]): object[] {
  return messages.map((message) => {
    const calls = message.content
      .filter((block) => block.type === 'tool-call')
      .map((block) => ({ id: block.id, name: block.name, arguments: block.arguments }));
    return {
      role: message.role,
      content: textOf(message.content),
      ...(calls.length === 0 ? {} : { toolCalls: calls }),
      ...(message.role === 'tool' ? { toolCallId: message.callId, isError: message.isError } : {}),
    };
  });
}

const NATIVE = ['claude-code', 'codex', 'pi'] as const;

/**
 * `dsh export ID|NAME [--format markdown|messages|claude-code|codex|pi] [--out FILE|DIR]`: the
 * model-visible history of a session, or (claude-code, codex, pi) a session file that tool resumes.
 */
export async function exportCommand(context: CliContext, values: OptionValues, ref: string): Promise<number> {
  const format = typeof values.format === 'string' ? values.format : 'markdown';
  const native = (NATIVE as readonly string[]).includes(format);
  if (format !== 'markdown' && format !== 'messages' && !native) {
    throw new CliError('USAGE', `--format: expected markdown, messages, claude-code, codex or pi, received '${format}'.`);
  }
  if (values.out !== undefined && !native) throw new CliError('USAGE', '--out goes with --format claude-code, codex or pi.');
  const { observed } = await observeSessionOrFile(context, values, ref);
  const messages = deriveHistory(observed.events) as readonly Message[];
  if (native) {
    return (await import('./native-export.js')).writeNativeExport(
      context,
      values,
      format as (typeof NATIVE)[number],
      observed,
      deriveHistory(observed.events),
    );
  }
  if (format === 'messages') context.stdout.write(`${JSON.stringify(historyMessages(messages), null, 2)}\n`);
  else context.stdout.write(terminalBody(historyMarkdown(terminalLine(observed.title ?? observed.header.id), messages)));
  return 0;
}
