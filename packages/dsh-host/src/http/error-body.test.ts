import { describe, expect, it } from 'vitest';
import { errorBody } from './error-body.js';
import { HostError } from '../host-error.js';

describe('errorBody', () => {
  it('SESSION_BUSY carries a hint naming the HTTP fork route, not a library call (SPEC §25)', () => {
    const body = errorBody(new HostError('SESSION_BUSY', 'Session abc is open for writing by pid 7.'));
    expect(body.error.code).toBe('SESSION_BUSY');
    expect(body.error.hint).toMatch(/^fork it instead: POST \/api\/sessions\/:id\/fork/);
    expect(errorBody(new HostError('SESSION_NOT_FOUND', 'no')).error.hint).toBeUndefined();
  });
});
