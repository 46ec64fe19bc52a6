/**
 * SPEC §25 — a typical `claude -p` shell script runs unchanged with dsh in Claude Code's place: a
 * `claude` on PATH that execs the real `dsh` bin, an `ANTHROPIC_API_KEY` in the environment, a fake
 * Anthropic server on 127.0.0.1. Eight steps, as people write them; `set -eu` stops at the first one
 * that fails (before §25 that was step 1, `--allowedTools`, exit 2).
 */
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DSH_BIN, makeTempDir, type ModelServer, startModelServer, streamedReply, type TempDir } from '@dsh/test-utils';

let dir: TempDir;
let server: ModelServer | undefined;
beforeEach(async () => {
  dir = await makeTempDir('dsh-acc-s25s-');
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await dir.remove();
});

// The script as a `claude -p` user keeps it; only the word `claude` on PATH decides who answers.
const SCRIPT = `set -eu
field() { node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s)[process.argv[1]]))' "$1"; }
# 1. a first turn: permissions as Claude takes them, the JSON result, the session id kept
sid=$(claude -p "Read notes.txt and summarise it" --allowedTools "Read,Bash" --permission-mode acceptEdits --output-format json | field session_id)
# 2. resume it on a Claude model alias
claude -p "Now list the risks" --resume "$sid" --model sonnet --output-format json > 2.json
# 3. continue the most recent session, text out
claude -c -p "Shorter, please" > 3.txt
# 4. piped stdin with a prompt, a system prompt appended, a bound on turns
cat notes.txt | claude -p "What do these notes say?" --append-system-prompt "Answer in one line." --max-turns 3 > 4.txt
# 5. stream-json, verbose, permissions skipped
claude -p "Stream it" --output-format stream-json --verbose --dangerously-skip-permissions > 5.jsonl
# 6. json --verbose: the array of messages, on a full Claude model name
claude -p "All messages" --output-format json --verbose --model claude-sonnet-4-5 > 6.json
# 7. stream-json in and out
echo '{"type":"user","message":{"role":"user","content":"From a line"}}' | claude -p --input-format stream-json --output-format stream-json --verbose > 7.jsonl
# 8. fork the first session with a tool taken away
claude -p "Try another way" --resume "$sid" --fork-session --disallowedTools "Edit" --output-format json > 8.json
echo "$sid" > sid.txt
`;

type Line = { type: string; subtype?: string; session_id?: string; is_error?: boolean; result?: string; tools?: string[] };
const lines = (text: string) =>
  text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Line);

describe('§25 a claude -p script with dsh in place of claude', () => {
  it(
    '§25 all 8 steps run unchanged: permission flags, aliases, resume, -c, stdin, stream-json both ways, json --verbose, fork with --disallowedTools',
    { timeout: 300_000 },
    async () => {
      let answers = 0;
      server = await startModelServer((request) => {
        if (request.api !== 'anthropic') return { status: 404, json: {} };
        answers += 1;
        // The first turn reads the notes, as `--allowedTools Read` let it; every other request answers in text.
        if (answers === 1)
          return streamedReply('anthropic', { toolCalls: [{ id: 'toolu_1', name: 'read_file', input: { path: 'notes.txt' } }] });
        return streamedReply('anthropic', { text: `answer ${String(answers)}` });
      });
      const work = join(dir.path, 'work');
      const bin = join(dir.path, 'bin');
      await mkdir(work);
      await mkdir(bin);
      await writeFile(join(work, 'notes.txt'), 'ship on friday\n');
      await writeFile(join(bin, 'claude'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(DSH_BIN)} "$@"\n`);
      await chmod(join(bin, 'claude'), 0o755);
      await writeFile(join(work, 'script.sh'), SCRIPT);

      const { NODE_OPTIONS: _nodeOptions, OPENAI_API_KEY: _openai, DSH_TOKEN: _token, ...inherited } = process.env;
      // Asynchronous: the fake server answers from this process.
      const child = spawn('sh', ['script.sh'], {
        cwd: work,
        env: {
          ...inherited,
          PATH: `${bin}:${process.env.PATH ?? ''}`,
          DSH_HOME: join(dir.path, 'dsh-home'),
          ANTHROPIC_API_KEY: 'sk-ant-test',
          ANTHROPIC_BASE_URL: server.origin,
        },
      });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(code, stderr).toBe(0);
      const read = (name: string) => readFile(join(work, name), 'utf8');
      const sid = (await read('sid.txt')).trim();

      // Step 1: one note for the permission flags, never a refusal.
      expect(stderr.split('\n').filter((line) => line.includes('no permission prompts')).length).toBeGreaterThanOrEqual(1);
      // Step 2: the same session, answered through the key's adapter.
      expect(JSON.parse(await read('2.json'))).toMatchObject({ session_id: sid, is_error: false, model: 'anthropic:claude-sonnet-4-5' });
      expect((await read('3.txt')).trim()).toMatch(/^answer \d+$/);
      expect((await read('4.txt')).trim()).toMatch(/^answer \d+$/);
      const streamed = lines(await read('5.jsonl'));
      expect([streamed[0]?.subtype, streamed.at(-1)?.type, streamed.at(-1)?.is_error]).toEqual(['init', 'result', false]);
      const array = JSON.parse(await read('6.json')) as Line[];
      expect(array.map((message) => message.type)).toEqual(['system', 'assistant', 'result']);
      expect(lines(await read('7.jsonl')).at(-1)).toMatchObject({ type: 'result', is_error: false });
      const forked = JSON.parse(await read('8.json')) as Line;
      expect(forked.is_error).toBe(false);
      expect(forked.session_id).not.toBe(sid);

      // Every request went to the fake Anthropic server on a model dsh mapped from Claude's names.
      const asked = server.requests.filter((request) => request.api === 'anthropic');
      expect(asked.map((request) => (request.body as { model: string }).model)).toEqual(Array(asked.length).fill('claude-sonnet-4-5'));
      expect(asked).toHaveLength(9);
      // Step 1's tool call ran: the notes reached the model in the tool result.
      expect(JSON.stringify(asked[1]?.body)).toContain('ship on friday');
      // Step 4's stdin and appended system prompt reached the model.
      const stdinTurn = asked.find((request) => JSON.stringify(request.body).includes('What do these notes say?'));
      expect(JSON.stringify(stdinTurn?.body)).toContain('ship on friday');
      expect(JSON.stringify(stdinTurn?.body)).toContain('Answer in one line.');
      // Step 8: Edit is not offered to the fork.
      const last = asked.at(-1)?.body as { tools?: { name: string }[] };
      expect(last.tools?.map((tool) => tool.name)).not.toContain('write_file');
    },
  );
});
