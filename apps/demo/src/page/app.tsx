/**
 * The demo page: sessions with their lineage, the open session's transcript (live over SSE), the
 * composer with its slash commands, and the inspector. State lives here; children only render.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { api } from './api.js';
import { ChatHead } from './chat-head.js';
import { Composer } from './composer.js';
import { ImportDrop, importTreeLines } from './import-drop.js';
import { Inspector } from './inspector.js';
import { COMMAND_HELP, parseCommand } from './parse-command.js';
import { parsePeersHash } from './peer-summary.js';
import { PeersBoard } from './peers-board.js';
import { PeersForm } from './peers-form.js';
import { sessionLabel } from './lineage-tree.js';
import { repairRange } from './repair-range.js';
import { SessionList } from './session-list.js';
import { Transcript } from './transcript.js';
import { hasOpenTurn, latestTitle, transcriptItems } from './transcript-items.js';
import { usePeersForm } from './use-peers-form.js';
import { describeError, useSessionView } from './use-session-view.js';
import { Welcome } from './welcome.js';
import type { SessionRow } from './wire.js';

type Notice = { id: number; text: string; tone: 'info' | 'error' };

function idFromHash(): string | undefined {
  const match = /^#\/s\/(.+)$/.exec(window.location.hash);
  return match?.[1] === undefined ? undefined : decodeURIComponent(match[1]);
}

/** The whole page. */
export function App() {
  const [sessions, setSessions] = useState<SessionRow[]>([]);
  const [currentId, setCurrentId] = useState<string | undefined>(idFromHash);
  const [reloads, setReloads] = useState(0);
  const [selectedSeq, setSelectedSeq] = useState<number | undefined>();
  const [notices, setNotices] = useState<Notice[]>([]);
  const [board, setBoard] = useState(() => parsePeersHash(window.location.hash));
  const noticeId = useRef(0);

  const notify = useCallback((text: string, tone: Notice['tone'] = 'info') => {
    noticeId.current += 1;
    const notice = { id: noticeId.current, text, tone };
    setNotices((previous) => [...previous.slice(-4), notice]);
  }, []);

  const refreshList = useCallback(async () => {
    try {
      setSessions(await api.list());
    } catch (error) {
      notify(`Could not list sessions: ${describeError(error)}`, 'error');
    }
  }, [notify]);
  // The “Peers…” form: open while `peersForm.request` names a baseline.
  const peersForm = usePeersForm(notify, refreshList);

  const open = useCallback((id: string) => {
    if (idFromHash() !== id) window.location.hash = `#/s/${encodeURIComponent(id)}`;
    setCurrentId(id);
    setSelectedSeq(undefined);
  }, []);

  const reload = useCallback(() => {
    setReloads((count) => count + 1);
  }, []);

  useEffect(() => {
    void refreshList();
    const timer = setInterval(() => void refreshList(), 5000);
    const onHash = () => {
      setCurrentId(idFromHash());
      setBoard(parsePeersHash(window.location.hash));
      setSelectedSeq(undefined);
    };
    window.addEventListener('hashchange', onHash);
    // A hash change between the first render and this effect fired no listener: take the hash as it is now.
    onHash();
    return () => {
      clearInterval(timer);
      window.removeEventListener('hashchange', onHash);
    };
  }, [refreshList]);

  const { loaded, loadError, streaming } = useSessionView(currentId, { reloads, reload, refreshList, notify });

  // While another session loads, the previous one's view must not show under the new one's name.
  const view = loaded?.id === currentId ? loaded : undefined;
  const items = useMemo(() => (view ? transcriptItems(view.events, view.observation.header) : []), [view]);
  const running = view !== undefined && !view.observation.needsRepair && hasOpenTurn(view.events);
  const row = sessions.find((session) => session.id === currentId);
  // The live title from the events; a fork without its own title is named after its parent and cut.
  const title = view === undefined ? undefined : latestTitle(view.events);
  const heading =
    view === undefined || row === undefined
      ? (title ?? currentId)
      : sessionLabel({ ...row, ...(title === undefined ? {} : { title }) }, new Map(sessions.map((session) => [session.id, session])));
  const repair = view?.repairedFrom === undefined ? undefined : repairRange(view.events, view.repairedFrom);

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
      api.fork(id, { atSeq: seq }).then(
        async (result) => {
          notify(`Forked ${result.parentSession} at seq ${result.forkCut}: now on ${result.sessionId}.`);
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
            if (view?.observation.live !== true) reload();
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
            if (view?.observation.live !== true) reload();
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
            if (view?.observation.live !== true) reload();
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
    [branch, currentId, notify, open, refreshList, reload, view],
  );

  return (
    <div class="layout">
      <header class="top">
        <h1>dsh demo</h1>
        <p class="tagline">Durable agent sessions with exact-event forks</p>
      </header>
      <SessionList sessions={sessions} currentId={currentId} onOpen={open}>
        <ImportDrop
          onImported={(answer, fileName) => {
            const count = answer.sessions.length;
            notify(
              [
                `Imported ${fileName} (${answer.format}): ${String(count)} session${count === 1 ? '' : 's'}`,
                ...importTreeLines(answer),
                ...answer.warnings.map((warning) => `warning: ${warning}`),
              ].join('\n'),
            );
            void refreshList();
            const main = answer.sessions[0];
            if (main !== undefined) open(main.id);
          }}
          onError={(message) => {
            notify(`Import refused: ${message}`, 'error');
          }}
        />
      </SessionList>
      {board !== undefined && currentId === undefined ? (
        <PeersBoard
          baseline={board.baseline}
          name={sessions.find((session) => session.id === board.baseline)?.title ?? board.baseline}
          ids={board.ids}
          refreshList={refreshList}
          notify={notify}
          onOpen={open}
        />
      ) : (
        <main class="chat" aria-label="Chat">
          {peersForm.request !== undefined && (
            <PeersForm
              baseline={sessions.find((session) => session.id === peersForm.request?.baseline)?.title ?? peersForm.request.baseline}
              atSeq={peersForm.request.atSeq}
              onSubmit={peersForm.submit}
              onCancel={peersForm.cancel}
            />
          )}
          {currentId === undefined ? (
            <Welcome sessions={sessions} onOpen={open} />
          ) : loadError !== undefined ? (
            <p role="alert">
              Could not open {currentId}: {loadError}
            </p>
          ) : view === undefined ? (
            <p aria-busy="true">Loading {currentId}…</p>
          ) : (
            <>
              <ChatHead
                view={view}
                heading={heading}
                formatVersion={row?.formatVersion}
                running={running}
                onFork={() => branch(view.id)}
                onPeers={() => {
                  peersForm.ask(view.id);
                }}
                onDelete={async () => {
                  const { sessionId } = await api.delete(view.id);
                  notify(`Deleted ${sessionId}; its forks keep their copies of its history.`);
                  window.location.hash = '';
                  await refreshList();
                }}
                notify={notify}
              />
              {view.observation.needsRepair && (
                <p class="banner warn" role="note">
                  This log ends inside an open turn: the process that wrote it stopped mid-step, or another process is still writing it. It
                  could not be opened here, so it is shown as stored, without crash repair.
                </p>
              )}
              {repair !== undefined && (
                <p class="banner warn" role="note">
                  This log ended inside an open turn: the process that wrote it stopped mid-step. Opening it ran crash repair: seqs{' '}
                  {repair.start}–{repair.end} give {repair.results} open call(s) interrupted results and close turn {repair.turn ?? '?'} as
                  interrupted. Send a message (e.g. <code>continue</code>) to carry on.
                </p>
              )}
              <Transcript key={view.id} items={items} streaming={streaming} onInspect={setSelectedSeq} selectedSeq={selectedSeq} />
            </>
          )}
          <ul class="notices" role="log" aria-label="Notices">
            {notices.map((notice) => (
              <li key={notice.id} class={notice.tone}>
                {notice.text}
              </li>
            ))}
          </ul>
          <Composer onSubmit={submit} running={running} />
        </main>
      )}
      {view && (
        <Inspector
          sessionId={view.id}
          events={view.events}
          selectedSeq={selectedSeq}
          onSelect={setSelectedSeq}
          firstLifecycleSeq={view.observation.firstLifecycleSeq}
          inheritedEventCount={view.observation.header.inheritedEventCount}
          onForkHere={(seq) => {
            forkHere(view.id, seq);
          }}
          onPeersHere={(seq) => {
            peersForm.ask(view.id, seq);
          }}
        />
      )}
    </div>
  );
}
