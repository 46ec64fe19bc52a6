import { describe, expect, it } from 'vitest';
import { loadLinesSync } from './load-lines-sync.js';

describe('loadLinesSync', () => {
  it('answers a server it cannot reach with STORAGE_ERROR naming it, at once (the waiting thread is never left to its timeout)', () => {
    const started = Date.now();
    let failure: unknown;
    try {
      loadLinesSync({ connectionString: 'postgres://nobody@127.0.0.1:1/none' }, '127.0.0.1:1', 'kid', {
        text: 'SELECT 1',
        segment: '1',
        count: 3,
      });
    } catch (error) {
      failure = error;
    }
    expect(failure).toMatchObject({ code: 'STORAGE_ERROR', sessionId: 'kid' });
    expect((failure as Error).message).toMatch(/Cannot read the inherited events of kid from PostgreSQL at 127\.0\.0\.1:1: .*ECONNREFUSED/);
    // Far below the 120 s bound: the worker reports its failure instead of going quiet.
    expect(Date.now() - started).toBeLessThan(60_000);
  });
});
