/**
 * The `dsh` CLI (apps/cli, bin `dsh`) run as a user runs it, a separate Node process, for the
 * acceptance files of SPEC §20 and §21; plus the OpenAI-compatible and Anthropic stream replies
 * their fake model servers (`startModelServer`, 127.0.0.1) answer with.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const DSH_BIN = join(import.meta.dirname, '..', '..', '..', 'apps', 'cli', 'bin', 'dsh.js');

export type DshRun = { code: number | null; stdout: string; stderr: string };
export type DshOptions = { cwd?: string; env?: Record<string, string | undefined>; stdin?: string };

function environment(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const merged: Record<string, string | undefined> = {
    ...process.env,
    DSH_HOME: undefined,
    DSH_TOKEN: undefined,
    NODE_OPTIONS: undefined,
    // A key in the caller's environment would pick a real model by default (SPEC §25): tests name theirs.
    ANTHROPIC_API_KEY: undefined,
    OPENAI_API_KEY: undefined,
    ...extra,
  };
  return Object.fromEntries(Object.entries(merged).filter(([, value]) => value !== undefined));
}

/** Starts `dsh ARGS` without waiting for it (stdin left open: write to it, or end it). */
export function spawnDsh(args: readonly string[], options: DshOptions = {}): ChildProcess {
  return spawn(process.execPath, [DSH_BIN, ...args], { cwd: options.cwd ?? process.cwd(), env: environment(options.env), stdio: 'pipe' });
}

/** Starts `dsh ARGS` on a pseudo-terminal (util-linux `script`), as interactive mode needs one. */
export function spawnDshOnTerminal(args: readonly string[], options: DshOptions = {}): ChildProcess {
  const command = [process.execPath, DSH_BIN, ...args].map((part) => `'${part.replace(/'/g, `'\\''`)}'`).join(' ');
  return spawn('script', ['-qfec', command, '/dev/null'], {
    cwd: options.cwd ?? process.cwd(),
    env: environment({ NO_COLOR: '1', ...options.env }),
    stdio: 'pipe',
  });
}

/** Runs `dsh ARGS` to its end (stdin: `options.stdin`, else closed at once). */
export function dsh(args: readonly string[], options: DshOptions = {}): Promise<DshRun> {
  const child = spawnDsh(args, options);
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  child.stdin?.end(options.stdin ?? '');
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      resolve({ code, stdout, stderr });
    });
  });
}

/** Print mode with `--output-format json`: the result object; fails when dsh exits non-zero. */
export async function printJson(args: readonly string[], options: DshOptions = {}): Promise<Record<string, unknown>> {
  const run = await dsh([...args, '--output-format', 'json'], options);
  if (run.code !== 0) throw new Error(`dsh ${args.join(' ')} exited ${String(run.code)}: ${run.stderr}`);
  return JSON.parse(run.stdout) as Record<string, unknown>;
}

/** Resolves once `child`'s stdout (accumulated) matches `pattern`; rejects if it exits first. */
export function outputMatching(child: ChildProcess, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer | string) => {
      seen += chunk.toString();
      if (pattern.test(seen)) {
        child.stdout?.off('data', onData);
        resolve(seen);
      }
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => {
      reject(new Error(`dsh exited ${String(code)} before printing ${String(pattern)}:\n${seen}`));
    });
  });
}

/** One OpenAI Chat Completions stream answering `text` (and `usage` when given). */
export function openAiAnswer(text: string, usage?: object): { chunks: string[] } {
  const chunk = (body: object) =>
    `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', ...body })}\n\n`;
  return {
    chunks: [
      chunk({ choices: [{ index: 0, delta: { role: 'assistant', content: text }, finish_reason: null }] }),
      chunk({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }),
      ...(usage === undefined ? [] : [chunk({ choices: [], usage })]),
      'data: [DONE]\n\n',
    ],
  };
}

/** One Anthropic Messages stream answering `text`. */
export function anthropicAnswer(text: string): { chunks: string[] } {
  const event = (name: string, body: object) => `event: ${name}\ndata: ${JSON.stringify({ type: name, ...body })}\n\n`;
  return {
    chunks: [
      event('message_start', {
        message: {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          model: 'claude-test',
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 5, output_tokens: 1 },
        },
      }),
      event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
      event('content_block_delta', { index: 0, delta: { type: 'text_delta', text } }),
      event('content_block_stop', { index: 0 }),
      event('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 2 } }),
      event('message_stop', {}),
    ],
  };
}
