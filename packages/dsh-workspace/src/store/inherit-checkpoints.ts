/**
 * @module inherit-checkpoints
 * A fork child keeps what its parent's checkpoints keep: its inherited `workspace/checkpoint` events
 * name the parent's trees, which must outlive the parent's deletion.
 */
import { appendFile, readFile } from 'node:fs/promises';
import { WorkspaceError } from '../workspace-error.js';
import { describe, sessionListPath, type StoreContext } from './store-context.js';

/**
 * Adds every tree `parentId` keeps to `childId`'s keep-list (each once). Conservative: trees of the
 * parent's checkpoints after the cut are kept too, until the child is released.
 */
export async function inheritCheckpoints(context: StoreContext, childId: string, parentId: string): Promise<void> {
  for (const [name, value] of [
    ['childId', childId],
    ['parentId', parentId],
  ] as const)
    if (typeof value !== 'string' || value === '')
      throw new WorkspaceError('INVALID_OPTION', `Expected ${name} to be a non-empty string; got ${describe(value)}.`);
  await context.ready();
  const text = await readFile(sessionListPath(context, parentId), 'utf8').catch((error: unknown) => {
    // A parent that never took a checkpoint leaves nothing to keep.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw error;
  });
  const trees = [...new Set(text.split('\n').filter((line) => line !== ''))];
  if (trees.length > 0) await appendFile(sessionListPath(context, childId), trees.map((tree) => `${tree}\n`).join(''));
}
