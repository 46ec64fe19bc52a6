import { describe, expect, it } from 'vitest';
import { syntheticResultMessage, syntheticResultText } from 'dsh-codec';

describe('synthetic result wording', () => {
  it('forked wording never mentions an interruption or a crash', () => {
    for (const started of [true, false]) {
      for (const effect of ['read-only', 'idempotent', 'side-effect', 'unknown'] as const) {
        expect(syntheticResultText('forked', started, effect)).not.toMatch(/interrupt|crash/i);
      }
    }
  });

  it('ids follow <cause>-tool-result-<callId>-<seq>', () => {
    const message = syntheticResultMessage('forked', { callId: 'call_1', started: false }, 7);
    expect(message.id).toBe('forked-tool-result-call_1-7');
    expect(message.isError).toBe(true);
  });
});
