import { readFileSync } from 'node:fs';
import { join } from 'node:path';
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

describe('docs/format.md', () => {
  it('quotes every canonical synthetic text exactly as the codec writes it', () => {
    const doc = readFileSync(join(import.meta.dirname, '..', '..', '..', 'docs', 'format.md'), 'utf8');
    for (const cause of ['interrupted', 'forked'] as const) {
      expect(doc).toContain(syntheticResultText(cause, false));
      for (const effect of ['read-only', 'idempotent', 'side-effect', 'unknown'] as const) {
        expect(doc).toContain(syntheticResultText(cause, true, effect));
      }
    }
  });
});
