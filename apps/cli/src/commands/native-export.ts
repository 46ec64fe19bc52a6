/**
 * The native half of `dsh export`: a dsh session as a Claude Code, Codex or pi session file,
 * printed, or written atomically (never over an existing file) where `--out` says
 * (`native-export-target.ts`: a file, a folder, or a tool's session root), so the tool's resume finds it.
 */
import { randomUUID } from 'node:crypto';
import { exportNativeTranscript, type HistoryMessage, type TranscriptFormat } from 'dsh-import';
import type { CliContext } from '../cli-context.js';
import { publishNewFile, uuidV7 } from '../native-files.js';
import type { OptionValues } from '../parse-command-line.js';
import { terminalLine } from '../terminal-text.js';
import { codexIndexCommand } from '../codex-index-command.js';
import { nativeExportTarget } from './native-export-target.js';

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
  // A session that records no cwd is exported with the directory dsh runs in: the folder a tool's
  // session root files it under and the directory its resume line changes into agree with the file.
  const cwd = observed.cwd ?? context.cwd;
  const exported = exportNativeTranscript(history as readonly HistoryMessage[], {
    format,
    sessionId,
    now,
    cwd,
    ...(model === undefined ? {} : { model }),
    ...(observed.title === undefined ? {} : { title: observed.title }),
  });
  if (typeof values.out !== 'string') {
    context.stdout.write(exported.text);
    return 0;
  }
  const target = await nativeExportTarget(context, {
    out: values.out,
    format,
    fileName: exported.fileName,
    cwd,
    now,
    resume: exported.resume,
  });
  await publishNewFile(target.file, exported.text);
  context.stdout.write(`${sessionId}\n`);
  // Codex lists only the threads its database records: the command that has Codex record this one.
  const index = format === 'codex' ? await codexIndexCommand(context, target.file, sessionId) : undefined;
  context.stderr.write(
    `dsh: exported ${terminalLine(observed.header.id)} as a ${format} session ${sessionId} into ${terminalLine(target.file)}\n  resume it with: ${terminalLine(target.resumeLine)}\n` +
      (index === undefined ? '' : `  list it in \`codex resume\` and --last: ${terminalLine(index.line)}\n`),
  );
  return 0;
}
