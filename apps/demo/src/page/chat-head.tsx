/**
 * The open session's heading: its name, id, parent and cut, the format it was read from, whether it
 * is live or running, and its actions (Fork, Peers…, Delete, Cancel turn).
 */
import { useState } from 'preact/hooks';
import { api } from './api.js';
import { describeError, type View } from './use-session-view.js';

type Props = {
  view: View;
  heading: string | undefined;
  /** The version the session list reports it was read from, when it is listed. */
  formatVersion: number | undefined;
  running: boolean;
  onFork: () => Promise<void>;
  onPeers: () => void;
  /** Deletes the session; asked for after a second, confirming click. */
  onDelete: () => Promise<void>;
  notify: (text: string, tone?: 'info' | 'error') => void;
};

/** The heading block above the transcript. */
export function ChatHead({ view, heading, formatVersion, running, onFork, onPeers, onDelete, notify }: Props) {
  // Delete takes two clicks: the first only asks (the button turns into “Confirm delete”).
  const [confirming, setConfirming] = useState<string | undefined>();
  return (
    <div class="chat-head">
      <div>
        <h2>{heading}</h2>
        <p class="muted">
          <span>{view.id}</span>
          {view.observation.header.parentSession !== undefined && (
            <>
              {' · fork of '}
              <a href={`#/s/${encodeURIComponent(view.observation.header.parentSession)}`}>{view.observation.header.parentSession}</a>
              {` at seq ${view.observation.header.forkCut ?? '?'}`}
            </>
          )}
          <span>{` · read from format V${formatVersion ?? view.observation.formatVersion}`}</span>
          <span>{` · ${running ? 'turn running' : view.observation.live ? 'live' : 'stored'}`}</span>
        </p>
      </div>
      <div class="actions">
        <button
          type="button"
          onClick={() => {
            onFork().catch((error: unknown) => {
              notify(describeError(error), 'error');
            });
          }}
          title="Fork at the latest closed turn (the chat rule); to fork at an exact event, select it and use Fork here in the inspector"
        >
          Fork
        </button>
        <button
          type="button"
          onClick={() => {
            onPeers();
          }}
          title="Fork several peers of this session at its latest closed turn and run a prompt in each at once"
        >
          Peers…
        </button>
        <button
          type="button"
          class={confirming === view.id ? 'danger' : undefined}
          onClick={() => {
            if (confirming !== view.id) {
              setConfirming(view.id);
              return;
            }
            setConfirming(undefined);
            onDelete().catch((error: unknown) => {
              notify(describeError(error), 'error');
            });
          }}
          onBlur={() => {
            setConfirming(undefined);
          }}
          title="Delete this session from the store (its forks keep their copies); refused while a turn runs"
        >
          {confirming === view.id ? 'Confirm delete' : 'Delete'}
        </button>
        {running && (
          <button
            type="button"
            onClick={() => {
              api.cancel(view.id).catch((error: unknown) => {
                notify(describeError(error), 'error');
              });
            }}
          >
            Cancel turn
          </button>
        )}
      </div>
    </div>
  );
}
