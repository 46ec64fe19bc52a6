import { describe, expect, it } from 'vitest';
import { createKeylessModel, demoTools, type ModelMessage } from 'dsh-agent';
import { toToolSpec } from '../to-tool-spec.js';

const tools = demoTools().map(toToolSpec);
const user = (text: string, id = 'u'): ModelMessage => ({ id, role: 'user', content: [{ type: 'text', text }] });
const calls = (id: string, ...list: [string, string, object][]): ModelMessage => ({
  id,
  role: 'assistant',
  content: list.map(([callId, name, args]) => ({ type: 'tool-call', id: callId, name, arguments: JSON.stringify(args) })),
});
const result = (callId: string, text: string, options: { isError?: boolean; id?: string } = {}): ModelMessage => ({
  id: options.id ?? `r-${callId}`,
  role: 'tool',
  callId,
  content: [{ type: 'text', text }],
  isError: options.isError ?? false,
});
const ask = (messages: ModelMessage[], offered = tools) => createKeylessModel().complete({ messages, tools: offered });

describe('keyless model', () => {
  it('is deterministic', async () => {
    const messages = [user('what is this?')];
    expect(await ask(messages)).toEqual(await ask(messages));
    expect((await ask(messages)).text).toContain('keyless offline model');
  });

  it('streams its text in several deltas that add up to the answer, and no delta for a tool-call-only step', async () => {
    const deltas: string[] = [];
    const answer = await createKeylessModel().complete({
      messages: [user('hello')],
      tools,
      onDelta: (delta) => deltas.push(delta.text ?? ''),
    });
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe(answer.text);
    const none: unknown[] = [];
    await createKeylessModel().complete({ messages: [user('list files')], tools, onDelta: (delta) => none.push(delta) });
    expect(none).toEqual([]);
  });

  it('reads a file in two steps: the call, then the answer from its result', async () => {
    expect(await ask([user('read notes/a.txt')])).toEqual({
      text: '',
      toolCalls: [{ name: 'read_file', arguments: '{"path":"notes/a.txt"}' }],
    });
    const answer = await ask([user('read notes/a.txt'), calls('a', ['c1', 'read_file', { path: 'notes/a.txt' }]), result('c1', 'hello')]);
    expect(answer).toEqual({ text: 'Contents of notes/a.txt:\nhello', toolCalls: [] });
  });

  it('lists and writes through the demo tools', async () => {
    expect((await ask([user('list files in src')])).toolCalls).toEqual([{ name: 'list_files', arguments: '{"path":"src"}' }]);
    expect((await ask([user('ls')])).toolCalls).toEqual([{ name: 'list_files', arguments: '{"path":"."}' }]);
    expect((await ask([user('write out.txt: two\nlines')])).toolCalls).toEqual([
      { name: 'write_file', arguments: '{"path":"out.txt","content":"two\\nlines"}' },
    ]);
  });

  it('explores over three steps, reading up to three files in one step', async () => {
    const turn: ModelMessage[] = [user('explore')];
    expect((await ask(turn)).toolCalls).toEqual([{ name: 'list_files', arguments: '{"path":"."}' }]);
    turn.push(calls('a1', ['c1', 'list_files', { path: '.' }]), result('c1', 'a.txt\nb.txt\nc.txt\nd.txt\nsrc/'));
    expect((await ask(turn)).toolCalls.map((call) => call.arguments)).toEqual(['{"path":"a.txt"}', '{"path":"b.txt"}', '{"path":"c.txt"}']);
    turn.push(
      calls('a2', ['c2', 'read_file', { path: 'a.txt' }], ['c3', 'read_file', { path: 'b.txt' }], ['c4', 'read_file', { path: 'c.txt' }]),
      result('c2', 'one\ntwo'),
      result('c3', 'gone', { isError: true }),
      result('c4', 'x'),
    );
    const final = await ask(turn);
    expect(final.toolCalls).toEqual([]);
    expect(final.text).toBe(
      'I explored the working directory (4 file(s)) and read 3:\n- a.txt: 2 line(s), starting "one"\n- b.txt: gone\n- c.txt: 1 line(s), starting "x"',
    );
  });

  it('only calls tools the request offers', async () => {
    const response = await ask(
      [user('read a.txt')],
      tools.filter((tool) => tool.name !== 'read_file'),
    );
    expect(response.toolCalls).toEqual([]);
    expect(response.text).toBe(
      'I would call read_file, but it is not available in this session (tools: list_files, make_dir, write_file).',
    );
  });

  it('makes a directory with make_dir when asked for one, then reports the result', async () => {
    const requests: [string, string][] = [
      ['mkdir docs', 'docs'],
      ['mkdir -p docs/api/v1', 'docs/api/v1'],
      ['create a folder notes', 'notes'],
      ['please make directory "out"', 'out'],
      ['create the dir build.', 'build'],
    ];
    for (const [text, path] of requests) {
      expect((await ask([user(text)])).toolCalls, text).toEqual([{ name: 'make_dir', arguments: JSON.stringify({ path }) }]);
    }
    // A file to create is still a write, not a directory.
    expect((await ask([user('create docs/a.txt: hi')])).toolCalls).toEqual([
      { name: 'write_file', arguments: '{"path":"docs/a.txt","content":"hi"}' },
    ]);
    const answer = await ask([user('mkdir docs'), calls('a', ['c1', 'make_dir', { path: 'docs' }]), result('c1', 'Created docs/.')]);
    expect(answer).toEqual({ text: 'Done: Created docs/.', toolCalls: [] });
    expect(
      (
        await ask(
          [user('mkdir docs')],
          tools.filter((tool) => tool.name !== 'make_dir'),
        )
      ).text,
    ).toBe('I would call make_dir, but it is not available in this session (tools: list_files, read_file, write_file).');
  });

  it('after a fork, re-runs an idempotent make_dir through a new call, and never repeats a tool it cannot judge', async () => {
    const notify = { name: 'notify', description: 'Posts a message.', parameters: { type: 'object' } };
    const offered = [...tools, notify];
    const previous: ModelMessage[] = [
      user('set up docs and tell the team', 'u1'),
      calls('a1', ['c1', 'make_dir', { path: 'docs' }], ['c2', 'notify', { channel: 'dev' }]),
      result('c1', 'forked, started', { isError: true, id: 'forked-tool-result-c1-7' }),
      result('c2', 'forked, not started', { isError: true, id: 'forked-tool-result-c2-8' }),
      user('continue', 'u2'),
    ];
    expect((await ask(previous, offered)).toolCalls).toEqual([{ name: 'make_dir', arguments: '{"path":"docs"}' }]);
    const rerun = [...previous, calls('a2', ['n1', 'make_dir', { path: 'docs' }]), result('n1', 'docs/ already exists.')];
    expect(await ask(rerun, offered)).toEqual({
      text: 'I re-ran 1 call(s) left without a result. I did not repeat notify: I cannot tell whether running it again is safe.',
      toolCalls: [],
    });
    const onlyNotify = [previous[0]!, calls('a1', ['c2', 'notify', { channel: 'dev' }]), previous[3]!, previous[4]!];
    expect(await ask(onlyNotify, offered)).toEqual({
      text: 'I did not repeat notify: I cannot tell whether running it again is safe.',
      toolCalls: [],
    });
    expect((await ask(onlyNotify)).text).toBe(
      'I would call notify, but it is not available in this session (tools: list_files, make_dir, read_file, write_file).',
    );
  });

  it('after a fork whose stored note follows the closers, continue still re-runs the unfinished calls', async () => {
    const previous: ModelMessage[] = [
      user('explore', 'u1'),
      calls('a1', ['c1', 'read_file', { path: 'a.txt' }]),
      result('c1', 'forked, not started', { isError: true, id: 'forked-tool-result-c1-7' }),
      user('Files changed since the cut: a.txt', 'note-9'),
      user('continue', 'u2'),
    ];
    expect((await ask(previous)).toolCalls).toEqual([{ name: 'read_file', arguments: '{"path":"a.txt"}' }]);
  });

  it('after a fork, re-runs a read-only call left without a result through a new call, and verifies a write first', async () => {
    const previous: ModelMessage[] = [
      user('explore', 'u1'),
      calls('a1', ['c1', 'read_file', { path: 'a.txt' }], ['c2', 'write_file', { path: 'w.txt', content: 'W' }]),
      result('c1', 'forked, not started', { isError: true, id: 'forked-tool-result-c1-7' }),
      result('c2', 'forked, started', { isError: true, id: 'forked-tool-result-c2-8' }),
      user('continue', 'u2'),
    ];
    expect((await ask(previous)).toolCalls).toEqual([
      { name: 'read_file', arguments: '{"path":"a.txt"}' },
      { name: 'read_file', arguments: '{"path":"w.txt"}' },
    ]);
    const checked = [
      ...previous,
      calls('a2', ['n1', 'read_file', { path: 'a.txt' }], ['n2', 'read_file', { path: 'w.txt' }]),
      result('n1', 'A'),
      result('n2', 'W'),
    ];
    expect(await ask(checked)).toEqual({
      text: 'I re-ran 1 call(s) left without a result. 1 write(s) had already taken effect; 0 had not and were written now.',
      toolCalls: [],
    });
    const notWritten = [...checked.slice(0, -1), result('n2', 'old')];
    expect((await ask(notWritten)).toolCalls).toEqual([{ name: 'write_file', arguments: '{"path":"w.txt","content":"W"}' }]);
    // A rewrite the tool refused is reported as refused, never as written (SPEC §25).
    const refused = [
      ...notWritten,
      calls('a3', ['r1', 'write_file', { path: 'w.txt', content: 'W' }]),
      result('r1', 'NO_WORKSPACE: this session has no working directory', { isError: true }),
    ];
    expect((await ask(refused)).text).toBe(
      'I re-ran 1 call(s) left without a result. 0 write(s) had already taken effect; 0 had not and were written now. 1 could not be written, refused: NO_WORKSPACE: this session has no working directory',
    );
  });

  it('ignores real error results when asked to continue', async () => {
    const response = await ask([
      user('read a.txt', 'u1'),
      calls('a1', ['c1', 'read_file', { path: 'a.txt' }]),
      result('c1', 'a.txt does not exist', { isError: true }),
      user('continue', 'u2'),
    ]);
    expect(response).toEqual({ text: 'There is nothing to continue: the previous turn left no unfinished tool calls.', toolCalls: [] });
  });
});
