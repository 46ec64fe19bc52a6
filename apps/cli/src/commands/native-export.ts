/**
 * The native half of `dsh export`: a dsh session as a Claude Code, Codex or pi session file,
 * printed, or written atomically (never over an existing file) to `--out FILE` or into `--out DIR`
 * under the tool's own file name, so the tool's resume finds it.
 */
import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { exportNativeTranscript, type HistoryMessage, type TranscriptFormat } from 'dsh-import';
import type { CliContext } from '../cli-context.js';
import { publishNewFile, uuidV7 } from '../native-files.js';
import type { OptionValues } from '../parse-command-line.js';
import { terminalLine } from '../terminal-text.js';
import { shellCommand } from '../shell-command.js';

type Observed = { header: { id: string }; title?: string; cwd?: string; events: readonly { type: string; data: unknown }[] };

function modelOf(events: Observed['events']): string | undefined {
  let model: string | undefined;
  for (const event of events) if (event.type === 'session/config') model = (event.data as { model?: string }).model ?? model;
  return model;
}

/** Exports `history` of `observed` as `format`; prints the file, or where it went and how to resume it. */
export async function writeNativeExport(
  context: CliContext,
  values: OptionValues,
  format: TranscriptFormat,
  observed: Observed,
  history: readonly unknown[],
): Promise<number> {
  const now = Date.now();
  const sessionId = format === 'claude-code' ? randomUUID() : uuidV7(now);
  const model = modelOf(observed.events);
  const exported = exportNativeTranscript(history as readonly HistoryMessage[], {
    format,
    sessionId,
    now,
    ...(observed.cwd === undefined ? {} : { cwd: observed.cwd }),
    ...(model === undefined ? {} : { model }),
    ...(observed.title === undefined ? {} : { title: observed.title }),
  });
  if (typeof values.out !== 'string') {
    context.stdout.write(exported.text);
    return 0;
  }
  const target = resolve(context.cwd, values.out);
  const isDir = await stat(target).then(
    (stats) => stats.isDirectory(),
    () => false,
  );
  const file = isDir ? join(target, exported.fileName) : target;
  await publishNewFile(file, exported.text);
  context.stdout.write(`${sessionId}\n`);
  context.stderr.write(
    `dsh: exported ${terminalLine(observed.header.id)} as a ${format} session ${sessionId} into ${terminalLine(file)}\n  resume it with: ${terminalLine(shellCommand(exported.resume(file)))}\n`,
  );
  return 0;
}
