import { logEvent } from '@dsh/test-utils';
import type { SessionEvent } from 'dsh-codec';
import { expect, test } from 'vitest';
import { paintFor } from './interactive-output.js';
import { terminalPrinter } from './terminal-printer.js';

const plain = paintFor({ stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: { NO_COLOR: '1' }, cwd: '/' });
const event = logEvent<SessionEvent>;
const message = (seq: number, step: number, text: string) =>
  event(seq, 'assistant/message', { turn: 1, step, message: { id: 'm', role: 'assistant', content: [{ type: 'text', text }] } });

test('streamed text appears piece by piece and its message only adds the seq', () => {
  let screen = '';
  const printer = terminalPrinter((text) => (screen += text), plain);
  printer.delta({ turn: 1, step: 1, text: 'Looking ' });
  expect(screen).toBe('Looking ');
  printer.delta({ turn: 1, step: 1, text: 'first.' });
  printer.event(message(5, 1, 'Looking first.'));
  printer.event(event(6, 'tool/call', { turn: 1, step: 1, name: 'list_files', effect: 'read-only', arguments: { path: '.' } }));
  printer.delta({ turn: 1, step: 2, text: 'Done.' });
  printer.event(event(9, 'turn/end', { turn: 1, reason: { kind: 'cancelled' } }));
  expect(screen).toBe('Looking first. [5]\n[6] ⚙ list_files (read-only) {"path":"."}\nDone.\n[9] turn 1 cancelled\n');
});

test('a message that was not streamed prints whole, with its seq first', () => {
  let screen = '';
  const printer = terminalPrinter((text) => (screen += text), plain);
  printer.event(message(3, 1, 'Hello.'));
  expect(screen).toBe('[3] Hello.\n');
});

test('reasoning streams dimmed after "thinking:", then the answer starts on its own line', () => {
  let screen = '';
  const printer = terminalPrinter((text) => (screen += text), plain);
  printer.delta({ turn: 1, step: 1, reasoning: 'The user wants ' });
  printer.delta({ turn: 1, step: 1, reasoning: 'a greeting.' });
  printer.delta({ turn: 1, step: 1, text: 'Hi!' });
  printer.event(message(4, 1, 'Hi!'));
  expect(screen).toBe('thinking: The user wants a greeting.\nHi! [4]\n');
  const coloured = paintFor({
    stdout: Object.assign(Object.create(process.stdout) as NodeJS.WriteStream, { isTTY: true }),
    stderr: process.stderr,
    stdin: process.stdin,
    env: {},
    cwd: '/',
  });
  let dimmed = '';
  terminalPrinter((text) => (dimmed += text), coloured).delta({ turn: 1, step: 1, reasoning: 'hmm' });
  expect(dimmed).toBe('\u001B[2mthinking: \u001B[0m\u001B[2mhmm\u001B[0m');
});

test('a step that streamed only reasoning prints its message whole when it arrives', () => {
  let screen = '';
  const printer = terminalPrinter((text) => (screen += text), plain);
  printer.delta({ turn: 1, step: 1, reasoning: 'Checking.' });
  printer.event(message(4, 1, 'Done.'));
  expect(screen).toBe('thinking: Checking.\n[4] Done.\n');
});

test("a session's terminal escapes show escaped: streamed text and reasoning, messages, calls, results, turn errors", () => {
  let screen = '';
  const printer = terminalPrinter((text) => (screen += text), plain);
  printer.delta({ turn: 1, step: 1, reasoning: 'why\u001b]52;c;eA==\u0007' });
  printer.delta({ turn: 1, step: 1, text: 'clear\u001b[2J\n' });
  printer.event(message(4, 1, 'clear\u001b[2J\n'));
  printer.event(message(5, 2, 'csi\u009b31m rlo\u202e'));
  printer.event(event(6, 'tool/call', { turn: 1, step: 2, name: 'x\u001b]0;t\u0007', effect: 'read-only', arguments: { p: '\u202e' } }));
  printer.event(
    event(7, 'tool/result', {
      turn: 1,
      step: 2,
      message: { role: 'tool', content: [{ type: 'text', text: 'out\u001b[31m' }], isError: false },
    }),
  );
  printer.event(event(8, 'turn/end', { turn: 1, reason: { kind: 'error', error: { code: 'E', message: 'bad\u0007' } } }));
  expect(screen).toBe(
    'thinking: why\\x1b]52;c;eA==\\x07\nclear\\x1b[2J\n[4]\n[5] csi\\x9b31m rlo\\u202e\n' +
      '[6] ⚙ x\\x1b]0;t\\x07 (read-only) {"p":"\\u202e"}\n[7] → out\\x1b[31m\n[8] turn 1 error (E: bad\\x07)\n',
  );
});
