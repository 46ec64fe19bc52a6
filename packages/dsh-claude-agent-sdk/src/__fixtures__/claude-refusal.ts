/**
 * @module __fixtures__/claude-refusal
 * `claudeRefusal`: the `ClaudeStoreError` an action rejects with, for tests that then check its code
 * and message; any other outcome fails the test.
 */
import { ClaudeStoreError } from 'dsh-claude-agent-sdk';

/** The `ClaudeStoreError` `action` rejects with; rethrows any other error, fails when it resolves. */
export async function claudeRefusal(action: Promise<unknown>): Promise<ClaudeStoreError> {
  try {
    await action;
  } catch (error) {
    if (ClaudeStoreError.is(error)) return error;
    throw error;
  }
  throw new Error('expected a ClaudeStoreError');
}
