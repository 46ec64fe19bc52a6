import { expect, test } from 'vitest';
import { DemoArgsError, parseDemoArgs } from './parse-demo-args.js';

test('defaults to port 4777 and no explicit data dir, model or pace', () => {
  expect(parseDemoArgs([])).toEqual({ port: 4777, help: false });
});

test('accepts --flag value and --flag=value, and skips the -- that pnpm passes through', () => {
  expect(parseDemoArgs(['--', '--port', '0', '--data=/tmp/x', '--model', 'scripted:s.json', '--pace=0'])).toEqual({
    port: 0,
    dataDir: '/tmp/x',
    model: 'scripted:s.json',
    paceMs: 0,
    help: false,
  });
  expect(parseDemoArgs(['--help']).help).toBe(true);
  expect(parseDemoArgs(['--token', 'secret']).token).toBe('secret');
  expect(parseDemoArgs(['--max-connections=64']).maxConnections).toBe(64);
  expect(parseDemoArgs(['--database-url', 'postgres://db:5432/dsh']).databaseUrl).toBe('postgres://db:5432/dsh');
});

test('refuses a bad port, a missing value and an unknown flag, naming what was expected', () => {
  expect(() => parseDemoArgs(['--port', '70000'])).toThrow(
    new DemoArgsError('--port: expected an integer from 0 to 65535, received "70000"'),
  );
  expect(() => parseDemoArgs(['--data'])).toThrow('--data: expected a directory, received nothing');
  expect(() => parseDemoArgs(['--database-url='])).toThrow('--database-url: expected postgres://USER@HOST:PORT/DB, received nothing');
  expect(() => parseDemoArgs(['--max-connections', '0'])).toThrow('--max-connections: expected an integer from 1 to 1000000, received "0"');
  expect(() => parseDemoArgs(['--verbose'])).toThrow(
    'unknown argument "--verbose": expected --port, --data, --database-url, --model, --pace, --token, --max-connections or --help',
  );
});
