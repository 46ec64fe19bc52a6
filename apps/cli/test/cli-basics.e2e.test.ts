import { existsSync } from 'node:fs';
import { copyFile, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claudeCodeTranscript, makeTempDir, printJson, runDsh, spawnDsh, type TempDir } from '@dsh/test-utils';

let data: TempDir;
beforeEach(async () => {
  data = await makeTempDir('dsh-cli-data-');
});
afterEach(async () => {
  await data.remove();
});

const COMMANDS = ['sessions', 'show', 'rename', 'fork', 'validate', 'migrate', 'serve'];

describe('dsh --help', () => {
  it('documents print mode and every command, each with its own --help', { timeout: 120_000 }, async () => {
    const main = await runDsh(['--help']);
    expect(main.code).toBe(0);
    for (const flag of [
      '-p, --print',
      '--resume',
      '--continue',
      '--fork-session',
      '--resume-at',
      '--name',
      '--tools',
      '--cwd',
      '--model',
      '--output-format',
      '--data',
    ]) {
      expect(main.stdout).toContain(flag);
    }
    for (const command of COMMANDS) expect(main.stdout).toMatch(new RegExp(`^  ${command} `, 'm'));
    // Every command's own --help is checked in-process (src/parse-command-line.test.ts); one through the bin:
    const help = await runDsh(['fork', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: dsh fork');
    expect(help.stdout).toContain('--at SEQ');
  });

  it('refuses unknown options and commands as usage errors (exit 2)', { timeout: 60_000 }, async () => {
    const option = await runDsh(['sessions', '--bogus']);
    expect(option.code).toBe(2);
    expect(option.stderr).toContain('USAGE');
    expect(option.stderr).toContain('dsh sessions --help');
    const command = await runDsh(['frobnicate']);
    expect(command.code).toBe(2);
    expect(command.stderr).toContain("Unknown command 'frobnicate'");
    const resumeAt = await runDsh(['-p', 'x', '--resume', 'a', '--resume-at', '2', '--data', data.path]);
    expect(resumeAt.code).toBe(2);
    expect(resumeAt.stderr).toContain('--resume-at needs --fork-session');
  });
});

describe('dsh management commands', () => {
  it('shows, renames and forks sessions; errors say the code and what to do', { timeout: 120_000 }, async () => {
    const first = await printJson(['-p', 'hello', '--name', 'twin', '--data', data.path]);
    // --name refuses a taken name (SPEC §25), here and in an import; a log named elsewhere and copied in
    // may still carry one: the name is then ambiguous.
    const transcript = join(data.path, 'claude.jsonl');
    await writeFile(transcript, claudeCodeTranscript({ turns: 1 }).text);
    const refused = await runDsh(['import', transcript, '--name', 'twin', '--data', data.path]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`NAME_TAKEN: The name 'twin' is taken by session ${String(first.sessionId)}`);
    const second: Record<string, unknown> = { sessionId: '5f0c3a52-7d4e-4b8a-9c61-2e8f4a1b3c7d' };
    expect((await runDsh(['sessions', '--json', '--data', data.path])).stdout).not.toContain(String(second.sessionId));
    const elsewhere = await makeTempDir('dsh-cli-elsewhere-');
    try {
      const imported = await runDsh(['import', transcript, '--name', 'twin', '--data', elsewhere.path]);
      expect(imported.code, imported.stderr).toBe(0);
      await copyFile(join(elsewhere.path, `${String(second.sessionId)}.jsonl`), join(data.path, `${String(second.sessionId)}.jsonl`));
    } finally {
      await elsewhere.remove();
    }

    const ambiguous = await runDsh(['show', 'twin', '--data', data.path]);
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stderr).toContain('NAME_AMBIGUOUS');
    expect(ambiguous.stderr).toContain(String(first.sessionId));
    expect(ambiguous.stderr).toContain(String(second.sessionId));

    const renamed = await runDsh(['rename', String(second.sessionId), 'solo', '--data', data.path]);
    expect(renamed.code).toBe(0);
    const shown = await runDsh(['show', 'solo', '--data', data.path]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(`session ${String(second.sessionId)}  "solo"`);
    expect(shown.stdout).toMatch(/^\s*\d+ {2}turn\/end +turn 1: completed$/m);

    const forked = await runDsh(['fork', 'twin', '--at', '2', '--name', 'kid', '--data', data.path]);
    expect(forked.code).toBe(0);
    const childId = forked.stdout.trim();
    expect(forked.stderr).toContain(`forked ${String(first.sessionId)} at seq 2`);
    const list = await runDsh(['sessions', '--json', '--data', data.path]);
    expect(
      (JSON.parse(list.stdout) as { id: string; parentSession?: string; forkCut?: number }[]).find((item) => item.id === childId),
    ).toMatchObject({
      parentSession: first.sessionId,
      forkCut: 2,
    });

    const missing = await runDsh(['show', 'ghost', '--data', data.path]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('SESSION_NOT_FOUND');
    expect(missing.stderr).toContain('dsh sessions');
  });

  it(
    'fork --idempotency-key prints the same child when run again, and refuses a different fork under the key',
    { timeout: 120_000 },
    async () => {
      const parent = await printJson(['-p', 'hello', '--data', data.path]);
      const args = ['fork', String(parent.sessionId), '--at', '2', '--idempotency-key', 'ci-retry-7', '--data', data.path];
      const first = await runDsh(args);
      expect(first.code).toBe(0);
      // A second process: nothing shared with the first but the data directory.
      const again = await runDsh(args);
      expect(again.code).toBe(0);
      expect(again.stdout.trim()).toBe(first.stdout.trim());
      const other = await runDsh(['fork', String(parent.sessionId), '--at', '1', '--idempotency-key', 'ci-retry-7', '--data', data.path]);
      expect(other.code).toBe(1);
      expect(other.stderr).toContain('IDEMPOTENCY_MISMATCH');
      const list = JSON.parse((await runDsh(['sessions', '--json', '--data', data.path])).stdout) as { parentSession?: string }[];
      expect(list.filter((item) => item.parentSession === parent.sessionId)).toHaveLength(1);
    },
  );

  it('uses --data, else $DSH_HOME, else ~/.dsh', { timeout: 90_000 }, async () => {
    const home = await makeTempDir('dsh-cli-home-');
    try {
      await printJson(['-p', 'hello'], { env: { DSH_HOME: data.path } });
      const viaEnv = await runDsh(['sessions', '--json'], { env: { DSH_HOME: data.path } });
      expect(JSON.parse(viaEnv.stdout)).toHaveLength(1);
      await printJson(['-p', 'hello'], { env: { HOME: home.path } });
      expect(existsSync(join(home.path, '.dsh'))).toBe(true);
      const viaFlag = await runDsh(['sessions', '--json', '--data', join(home.path, '.dsh')], { env: { DSH_HOME: data.path } });
      expect(JSON.parse(viaFlag.stdout)).toHaveLength(1);
    } finally {
      await home.remove();
    }
  });
});

describe('dsh serve', () => {
  it('serves the HTTP API on 127.0.0.1 until SIGTERM', { timeout: 60_000 }, async () => {
    const child = spawnDsh(['serve', '--port', '0', '--data', data.path]);
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        const timer = setTimeout(() => {
          reject(new Error(`no URL printed: ${out}`));
        }, 45_000);
        child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
          out += chunk;
          const match = /serving (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
          if (match?.[1] !== undefined) {
            clearTimeout(timer);
            resolve(match[1]);
          }
        });
      });
      const created = await fetch(`${url}/api/sessions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"title":"served"}',
      });
      expect(created.status).toBe(201);
      const list = (await (await fetch(`${url}/api/sessions`)).json()) as { sessions: { title?: string }[] };
      expect(list.sessions.map((item) => item.title)).toEqual(['served']);
      const exited = new Promise<number | null>((resolve) =>
        child.on('exit', (code) => {
          resolve(code);
        }),
      );
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it(
    'streams to at most --max-streams clients (one more is 503 TOO_MANY_STREAMS) and refuses a malformed Host with 400',
    { timeout: 120_000 },
    async () => {
      const child = spawnDsh(['serve', '--port', '0', '--max-streams', '1', '--max-connections', '64', '--data', data.path]);
      const controller = new AbortController();
      try {
        const url = await new Promise<string>((resolve) => {
          let out = '';
          child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
            out += chunk;
            const match = /serving (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
            if (match?.[1] !== undefined) resolve(match[1]);
          });
        });
        const created = (await (
          await fetch(`${url}/api/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
        ).json()) as { sessionId: string };
        const first = await fetch(`${url}/api/sessions/${created.sessionId}/events`, { signal: controller.signal });
        expect(first.status).toBe(200);
        const second = await fetch(`${url}/api/sessions/${created.sessionId}/events`);
        expect(second.status).toBe(503);
        expect(second.headers.get('retry-after')).toMatch(/^\d+$/);
        expect(((await second.json()) as { error: { code: string } }).error.code).toBe('TOO_MANY_STREAMS');
        expect((await fetch(`${url}/api/sessions`)).status).toBe(200);
        const badHost = await new Promise<{ status: number; text: string }>((resolve, reject) => {
          const request = httpRequest(`${url}/api/sessions`, { headers: { host: '999.999.999.999' } }, (response) => {
            let text = '';
            response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
            response.on('end', () => {
              resolve({ status: response.statusCode ?? 0, text });
            });
          });
          request.on('error', reject);
          request.end();
        });
        expect(badHost.status).toBe(400);
        expect(badHost.text).toContain('"BAD_REQUEST"');
      } finally {
        controller.abort();
        child.kill('SIGKILL');
      }
    },
  );

  it('refuses --max-streams and --max-connections that are not positive integers', { timeout: 60_000 }, async () => {
    const result = await runDsh(['serve', '--max-streams', '0', '--port', '0', '--data', data.path]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--max-streams expects a positive integer');
    const connections = await runDsh(['serve', '--max-connections', 'many', '--port', '0', '--data', data.path]);
    expect(connections.code).toBe(2);
    expect(connections.stderr).toContain("--max-connections expects a positive integer, received 'many'");
    const sessions = await runDsh(['serve', '--max-sessions', '0', '--port', '0', '--data', data.path]);
    expect(sessions.code).toBe(2);
    expect(sessions.stderr).toContain('--max-sessions expects a positive integer');
    const idle = await runDsh(['serve', '--idle-session-seconds', 'soon', '--port', '0', '--data', data.path]);
    expect(idle.code).toBe(2);
    expect(idle.stderr).toContain('--idle-session-seconds expects a positive integer');
  });

  it('keeps at most --max-sessions sessions live: a new one closes the idle one', { timeout: 120_000 }, async () => {
    const child = spawnDsh(['serve', '--port', '0', '--max-sessions', '1', '--data', data.path]);
    try {
      const url = await new Promise<string>((resolve) => {
        let out = '';
        child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
          out += chunk;
          const match = /serving (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
          if (match?.[1] !== undefined) resolve(match[1]);
        });
      });
      const create = async () =>
        (
          (await (
            await fetch(`${url}/api/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
          ).json()) as { sessionId: string }
        ).sessionId;
      const first = await create();
      const second = await create();
      const { sessions } = (await (await fetch(`${url}/api/sessions`)).json()) as { sessions: { id: string; live: boolean }[] };
      expect(sessions.filter((session) => session.live).map((session) => session.id)).toEqual([second]);
      expect(sessions.some((session) => session.id === first)).toBe(true);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('refuses a non-loopback address without a token', { timeout: 60_000 }, async () => {
    const result = await runDsh(['serve', '--host', '0.0.0.0', '--port', '0', '--data', data.path]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('INVALID_OPTION');
    expect(result.stderr).toContain('token');
  });
});
