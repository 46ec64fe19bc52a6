/**
 * The open session's heading: its name, id, parent and cut, the format it was read from, whether it
 * is live or running, and its actions (Fork, Peers…, Cancel turn).
 */
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
  notify: (text: string, tone?: 'info' | 'error') => void;
};

/** The heading block above the transcript. */
export function ChatHead({ view, heading, formatVersion, running, onFork, onPeers, notify }: Props) {
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
