import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import {
  acceptsConnections,
  commandLineOf,
  descendantsOf,
  isRunning,
  makeTempDir,
  runDsh,
  spawnDsh,
  type TempDir,
  waitFor,
} from '@dsh/test-utils';

let data: TempDir;
/** Every server a test started: killed afterwards even when an assertion failed midway. */
const started: ChildProcess[] = [];
beforeEach(async () => {
  data = await makeTempDir('dsh-cli-processes-');
});
afterEach(async () => {
  for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await data.remove();
});

async function startServe(): Promise<{ child: ChildProcess; url: string; port: number; stderr: () => string }> {
  const child = spawnDsh(['serve', '--port', '0', '--data', data.path]);
  started.push(child);
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  await waitFor(`dsh serve to print its URL (stdout: ${out} stderr: ${err})`, () => /serving http:\/\/127\.0\.0\.1:\d+/.test(out), 90_000);
  const url = (/serving (http:\/\/127\.0\.0\.1:(\d+))/.exec(out) ?? [])[1] as string;
  return { child, url, port: Number(new URL(url).port), stderr: () => err };
}

function exitOf(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) =>
    child.once('exit', (code, signal) => {
      resolve({ code, signal });
    }),
  );
}

describe('dsh serve as a process', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(
      `is the server itself (no launcher child) and stops on ${signal}, closing its port and releasing its sessions`,
      { timeout: 300_000 },
      async () => {
        const served = await startServe();
        const pid = served.child.pid as number;
        // From source, tsx may start its esbuild helper (it exits with our pipe); never a second node.
        expect(
          descendantsOf(pid)
            .map(commandLineOf)
            .filter((line) => !line.startsWith('esbuild') && line !== ''),
        ).toEqual([]);
        const created = (await (
          await fetch(`${served.url}/api/sessions`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: '{"title":"held"}',
          })
        ).json()) as { sessionId: string };
        expect(
          (
            await fetch(`${served.url}/api/sessions/${created.sessionId}/messages`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: '{"text":"hello"}',
            })
          ).status,
        ).toBe(202);
        await waitFor(
          'the served turn to finish',
          async () => {
            const observed = (await (await fetch(`${served.url}/api/sessions/${created.sessionId}`)).json()) as {
              events: { type: string }[];
            };
            return observed.events.some((event) => event.type === 'turn/end');
          },
          90_000,
        );
        // While served, the session is held by the server's lease: another writer is refused.
        const busy = await runDsh(['-p', 'me too', '--resume', created.sessionId, '--data', data.path]);
        expect(busy.stderr).toContain('SESSION_BUSY');

        served.child.kill(signal);
        expect(await exitOf(served.child)).toEqual({ code: 0, signal: null });
        expect(served.stderr()).toContain(`stopped (${signal})`);
        expect(await acceptsConnections(served.port)).toBe(false);
        const resumed = await runDsh(['-p', 'again', '--resume', created.sessionId, '--data', data.path]);
        expect(resumed.stderr).not.toContain('SESSION_BUSY');
        expect(resumed.code).toBe(0);
      },
    );
  }

  it('leaves nothing serving after kill -9', { timeout: 180_000 }, async () => {
    const served = await startServe();
    const pid = served.child.pid as number;
    const below = descendantsOf(pid);
    served.child.kill('SIGKILL');
    await exitOf(served.child);
    expect(isRunning(pid)).toBe(false);
    await waitFor('its helper processes to exit', () => below.every((helper) => !isRunning(helper)), 60_000);
    expect(await acceptsConnections(served.port)).toBe(false);
  });
});
