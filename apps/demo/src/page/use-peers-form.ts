/**
 * The “Peers…” form's state, apart from the page: which baseline (and exact cut) it forks from while
 * open, and what submitting it does — `POST /api/sessions/:id/peers`, a notice, then the peers board.
 */
import { useCallback, useState } from 'preact/hooks';
import { api } from './api.js';
import { peersHash } from './peer-summary.js';
import { withOwnDirectory } from './own-directory.js';
import type { Notify } from './use-notices.js';
import { describeError } from './use-session-view.js';

/** What the form forks from: a baseline, and the exact seq when a selected event was chosen. */
export type PeersRequest = { baseline: string; atSeq?: number };

/**
 * `request` is set while the form is open (`ask`), cleared by `cancel` and by a successful `submit`,
 * which then shows the new peers' board; a refused submit keeps the form open and notifies the error.
 */
export function usePeersForm(notify: Notify, refreshList: () => Promise<void>) {
  const [request, setRequest] = useState<PeersRequest | undefined>();
  const ask = useCallback((baseline: string, atSeq?: number) => {
    setRequest(atSeq === undefined ? { baseline } : { baseline, atSeq });
  }, []);
  const cancel = useCallback(() => {
    setRequest(undefined);
  }, []);
  const submit = useCallback(
    async (peers: { prompt: string; title?: string }[]) => {
      if (request === undefined) return;
      try {
        // Each peer in its own directory holding the files at the cut (SPEC §23), so they never share files.
        const { result, shared } = await withOwnDirectory(request.baseline, request.atSeq, (worktree) =>
          api.peers(request.baseline, {
            ...(request.atSeq === undefined ? {} : { atSeq: request.atSeq }),
            ...(worktree ? { worktree } : {}),
            peers,
          }),
        );
        notify(
          `Forked ${String(result.peers.length)} peers of ${result.baseline} at seq ${String(result.cut)}: ${result.peers.map((peer) => peer.title).join(', ')}.` +
            (shared === undefined ? ' Each has its own directory.' : ` They have ${shared}`),
        );
        setRequest(undefined);
        await refreshList();
        window.location.hash = peersHash(
          result.baseline,
          result.peers.map((peer) => peer.sessionId),
        );
      } catch (error) {
        notify(describeError(error), 'error');
      }
    },
    [notify, refreshList, request],
  );
  return { request, ask, cancel, submit };
}
