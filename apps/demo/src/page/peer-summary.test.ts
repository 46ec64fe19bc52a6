import { logEvents, type LogRow } from '@dsh/test-utils';
import { describe, expect, test } from 'vitest';
import { parsePeersHash, peerSummary, peersHash } from './peer-summary.js';
import type { WireEvent } from './wire.js';

const log = (...rows: LogRow[]) => logEvents<WireEvent>(rows);

describe('peerSummary', () => {
  test("counts the peer's own tool calls and the files its successful writes named, not inherited ones", () => {
    const result = (callId: string, isError: boolean) => ({ message: { id: `r-${callId}`, role: 'tool', callId, content: [], isError } });
    const events = log(
      ['tool/call', { callId: 'old', name: 'write_file', arguments: '{"path":"inherited.txt"}' }],
      ['tool/result', result('old', false)],
      ['tool/call', { callId: 'a', name: 'write_file', arguments: '{"path":"a.txt"}' }],
      ['tool/result', result('a', false)],
      ['tool/call', { callId: 'b', name: 'write_file', arguments: '{"path":"b.txt"}' }],
      ['tool/result', result('b', true)],
      ['tool/call', { callId: 'c', name: 'read_file', arguments: '{"path":"c.txt"}' }],
      ['tool/result', result('c', false)],
    );
    expect(peerSummary(events, 2)).toEqual({ toolCalls: ['write_file', 'write_file', 'read_file'], files: ['a.txt'] });
  });

  test('a peers address round-trips its baseline and ids', () => {
    const hash = peersHash('base line', ['p-1', 'p/2']);
    expect(parsePeersHash(hash)).toEqual({ baseline: 'base line', ids: ['p-1', 'p/2'] });
    expect(parsePeersHash('#/s/x')).toBeUndefined();
  });
});
