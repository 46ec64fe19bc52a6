import { describe, expect, it } from 'vitest';
import { busyError } from './store-errors.js';

describe('busyError', () => {
  it('names the holder and suggests a fork without a library call a CLI or HTTP user cannot make (SPEC §25)', () => {
    const error = busyError('abc', { pid: 7, host: 'h', since: 0 });
    expect(error.code).toBe('SESSION_BUSY');
    expect(error.message).toContain('pid 7 on h');
    expect(error.message).toContain('fork it instead');
    expect(error.message).not.toMatch(/fork\(|atSeq/);
  });
});
