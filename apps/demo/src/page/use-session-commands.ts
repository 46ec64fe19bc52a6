/**
 * What the page's actions do over the API: `/branch` and the Fork button (`branch`), the inspector's
 * "Fork here" (`forkHere`), and the composer's input (`submit`: a message or one slash command).
 */
import { useCallback } from 'preact/hooks';
import { api } from './api.js';
import { COMMAND_HELP, parseCommand } from './parse-command.js';
import type { Notify } from './use-notices.js';
import { describeError } from './use-session-view.js';
import { withOwnDirectory } from './own-directory.js';

type Options = {
  /** The open session, if any. */
  currentId: string | undefined;
  /** Whether the open session is live here (its appends arrive over SSE; otherwise it is reloaded). */
  live: boolean;
  notify: Notify;
  open: (id: string) => void;
  refreshList: () => Promise<void>;
  reload: () => void;
};

/**
 * `branch` forks a session at its end and opens the child (a refusal rejects); `forkHere` forks at a
 * seq and notifies a refusal; `submit` resolves `true` when the input was taken (the composer clears).
 */
export function useSessionCommands({ currentId, live, notify, open, refreshList, reload }: Options) {
  const branch = useCallback(
    async (id: string, title?: string) => {
      const result = await api.fork(id, title === undefined ? {} : { title });
      notify(
        `Branched: now on ${result.sessionId}, a fork of ${result.parentSession} at seq ${result.forkCut}. ` +
          `The original ${result.parentSession} stays resumable: /resume ${result.parentSession}`,
      );
      await refreshList();
      open(result.sessionId);
    },
    [notify, open, refreshList],
  );

  const forkHere = useCallback(
    (id: string, seq: number) => {
      withOwnDirectory(id, seq, (worktree) => api.fork(id, { atSeq: seq, ...(worktree ? { worktree } : {}) })).then(
        async ({ result, shared }) => {
          const where = result.worktree === undefined ? ` It has ${shared ?? 'no own directory.'}` : ` Its files: ${result.worktree.dir}.`;
          notify(`Forked ${result.parentSession} at seq ${result.forkCut}: now on ${result.sessionId}.${where}`);
          await refreshList();
          open(result.sessionId);
        },
        (error: unknown) => {
          notify(describeError(error), 'error');
        },
      );
    },
    [notify, open, refreshList],
  );

  const submit = useCallback(
    async (raw: string): Promise<boolean> => {
      const input = parseCommand(raw);
      try {
        switch (input.kind) {
          case 'message': {
            if (input.text === '') return false;
            let id = currentId;
            if (id === undefined) {
              id = (await api.create()).sessionId;
              open(id);
            }
            await api.send(id, input.text);
            if (!live) reload();
            return true;
          }
          case 'branch':
            if (currentId === undefined) throw new Error('Open a session first.');
            await branch(currentId, input.name);
            return true;
          case 'rename':
            if (currentId === undefined) throw new Error('Open a session first.');
            await api.rename(currentId, input.name);
            notify(`Renamed ${currentId} to “${input.name}”.`);
            await refreshList();
            if (!live) reload();
            return true;
          case 'resume': {
            // The host resolves ids and names (SESSION_NOT_FOUND, NAME_AMBIGUOUS with the ids).
            const { header } = await api.observe(input.ref);
            open(header.id);
            notify(`Resumed ${header.id}.`);
            return true;
          }
          case 'compact':
            if (currentId === undefined) throw new Error('Open a session first.');
            {
              const result = await api.compact(currentId);
              notify(
                result.compacted && result.replaced !== undefined
                  ? `Compacted: seqs ${result.replaced.start}–${result.replaced.end} are replaced by a summary for the model (events ${result.startSeq ?? '?'}–${result.endSeq ?? '?'}); the log keeps them.`
                  : 'Nothing to compact yet.',
              );
            }
            if (!live) reload();
            return true;
          case 'help':
            notify(COMMAND_HELP.join('\n'));
            return true;
          case 'invalid':
            notify(input.message, 'error');
            return false;
        }
      } catch (error) {
        notify(describeError(error), 'error');
        return false;
      }
    },
    [branch, currentId, live, notify, open, refreshList, reload],
  );

  return { branch, forkHere, submit };
}
