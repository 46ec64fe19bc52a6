/**
 * @module resume-picker
 * `/resume` without an argument: the most recent sessions, numbered, each with its name, updated time
 * and first prompt (as Claude Code's picker shows them); a number typed next picks one.
 */
import type { ContentBlock } from 'dsh-codec';
import type { Host, SessionListItem } from 'dsh-host/core';
import { terminalLine } from '../terminal-text.js';

/** How many sessions the picker lists. */
const PICKER_SIZE = 20;

/** One row of the picker. */
export type PickerEntry = { id: string; title?: string; updatedAt: number; firstPrompt: string };

function firstPromptOf(events: readonly { type: string; data: unknown }[]): string {
  for (const event of events) {
    if (event.type !== 'user/message' && event.type !== 'input/queued') continue;
    const content = (event.data as { message?: { content?: ContentBlock[] } }).message?.content ?? [];
    const text = content
      .flatMap((block) => (block.type === 'text' ? [block.text] : []))
      .join(' ')
      .replace(/\s+/g, ' ')
      .trim();
    if (text !== '') return text;
  }
  return '';
}

/** The picker's rows: the most recently updated sessions, each with its first prompt (unreadable ones skipped). */
export async function pickerEntries(host: Host, items: readonly SessionListItem[]): Promise<PickerEntry[]> {
  const entries: PickerEntry[] = [];
  for (const item of items.slice(0, PICKER_SIZE)) {
    try {
      const observed = await host.observe(item.id);
      entries.push({
        id: item.id,
        ...(item.title === undefined ? {} : { title: item.title }),
        updatedAt: item.updatedAt,
        firstPrompt: firstPromptOf(observed.events),
      });
    } catch {
      // A log that cannot be read is not offered; `dsh sessions` shows it with its problem.
    }
  }
  return entries;
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** The picker as lines: `N) updated  name  "first prompt"  id`, the current session marked. */
export function pickerLines(entries: readonly PickerEntry[], current: string, now = Date.now()): string[] {
  return entries.map((entry, index) => {
    const age = Math.max(0, Math.round((now - entry.updatedAt) / 60_000));
    const when =
      age < 60
        ? `${String(age)} min ago`
        : age < 1440
          ? `${String(Math.round(age / 60))} h ago`
          : new Date(entry.updatedAt).toISOString().slice(0, 10);
    const prompt = entry.firstPrompt === '' ? '(no prompt yet)' : `"${clip(terminalLine(entry.firstPrompt), 60)}"`;
    const mark = entry.id === current ? '  *' : '';
    return `${String(index + 1).padStart(2)}) ${when.padEnd(11)} ${clip(terminalLine(entry.title ?? ''), 24).padEnd(24)} ${prompt}  ${terminalLine(entry.id)}${mark}`;
  });
}
