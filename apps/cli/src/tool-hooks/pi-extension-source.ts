/**
 * @module pi-extension-source
 * The text of dsh's pi extension (SPEC §23, docs/workspace.md "pi sessions"): pi 0.73 runs no command
 * around a tool call, but it loads TypeScript extensions whose `tool_call` / `tool_result` handlers it
 * awaits. dsh's is one small file, generated here: each handler spawns `dsh checkpoint --from pi` (the
 * argv of `dshHookArgv`) with the call's JSON on stdin, waits at most `PI_CHECKPOINT_BUDGET_MS`, and
 * never throws into pi, blocks a call or changes a result. Its first line names dsh and the sha256 of
 * the rest, so dsh knows the file as its own — and one edited since is the user's.
 */
import { createHash } from 'node:crypto';

/** The file dsh writes in an extensions folder. */
export const PI_EXTENSION_FILE_NAME = 'dsh-checkpoints.ts';

/** How long the extension waits for `dsh checkpoint` before it lets pi go on (the hooks' timeout for Claude Code and Codex). */
export const PI_CHECKPOINT_BUDGET_MS = 30_000;

const MARK =
  /^\/\/ Written by `dsh hooks install pi`; `dsh hooks remove pi` deletes it \(an edit makes it yours\)\. sha256:([0-9a-f]{64})$/;

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The extension's body (everything below the first line) for `argv` (`dshHookArgv(…, 'pi')`). */
function body(argv: readonly string[]): string {
  return `/**
 * dsh's checkpoint extension for pi (dsh: docs/workspace.md "pi sessions"). Before and after each tool call it
 * runs \`dsh checkpoint --from pi\` with the call's ids and working directory on stdin, so that
 * \`dsh fork FILE --at REF --worktree\` can give a fork the files as they were at REF. dsh writes nothing in
 * the workspace or the session file. The extension never blocks a call, never changes a result and never
 * throws: dsh gets at most ${String(PI_CHECKPOINT_BUDGET_MS / 1000)} s, and a failure is one note.
 */
import { spawn } from 'node:child_process';

const COMMAND: readonly string[] = ${JSON.stringify(argv)};
const BUDGET_MS = ${String(PI_CHECKPOINT_BUDGET_MS)};

type ToolEvent = { type: string; toolCallId: string; toolName?: string };
type Context = {
  cwd: string;
  hasUI?: boolean;
  ui?: { notify(message: string, level: string): void };
  sessionManager: { getSessionId(): string; getSessionFile(): string | undefined };
};

function report(note: string, ctx: Context): void {
  try {
    if (ctx.hasUI === true && ctx.ui !== undefined) ctx.ui.notify(note.trim(), 'warning');
    else process.stderr.write(note.endsWith('\\n') ? note : \`\${note}\\n\`);
  } catch {
    // Nowhere to say it: pi goes on.
  }
}

function checkpoint(event: ToolEvent, ctx: Context): Promise<void> {
  return new Promise((resolve) => {
    let note = '';
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (note !== '') report(note, ctx);
      resolve();
    };
    const timer = setTimeout(() => {
      note += \`dsh checkpoint: no answer within \${String(BUDGET_MS)} ms; pi goes on.\\n\`;
      finish();
    }, BUDGET_MS);
    try {
      const input = JSON.stringify({
        type: event.type,
        toolCallId: event.toolCallId,
        toolName: event.toolName,
        cwd: ctx.cwd,
        sessionId: ctx.sessionManager.getSessionId(),
        sessionFile: ctx.sessionManager.getSessionFile() ?? null,
      });
      const child = spawn(COMMAND[0] as string, COMMAND.slice(1), { stdio: ['pipe', 'ignore', 'pipe'], timeout: BUDGET_MS, killSignal: 'SIGKILL' });
      child.stderr?.on('data', (chunk: Buffer) => {
        if (note.length < 4096) note += chunk.toString('utf8');
      });
      child.on('error', (error: Error) => {
        note += \`dsh checkpoint: cannot run dsh (\${error.message}); pi goes on.\\n\`;
        finish();
      });
      child.on('close', finish);
      child.stdin?.on('error', () => undefined);
      child.stdin?.end(input);
    } catch (error) {
      note += \`dsh checkpoint: \${error instanceof Error ? error.message : String(error)}; pi goes on.\\n\`;
      finish();
    }
  });
}

export default function dshCheckpoints(pi: { on(event: string, handler: (event: ToolEvent, ctx: Context) => Promise<void>): void }): void {
  // Neither handler returns anything: the call is never blocked and its result never changed.
  pi.on('tool_call', (event, ctx) => checkpoint(event, ctx));
  pi.on('tool_result', (event, ctx) => checkpoint(event, ctx));
}
`;
}

/** The whole file for `argv`: the line naming dsh and the sha256 of the body, then the body. */
export function piExtensionSource(argv: readonly string[]): string {
  const text = body(argv);
  return `// Written by \`dsh hooks install pi\`; \`dsh hooks remove pi\` deletes it (an edit makes it yours). sha256:${sha256(text)}\n${text}`;
}

/** Whether `text` is a file dsh wrote and nobody changed since: its first line dsh's, naming the sha256 of the rest. */
export function isDshPiExtension(text: string): boolean {
  const end = text.indexOf('\n');
  if (end === -1) return false;
  const mark = MARK.exec(text.slice(0, end));
  return mark !== null && mark[1] === sha256(text.slice(end + 1));
}
